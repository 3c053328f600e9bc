# expect: 21 CTX501
"""The key is a field of an object built in this call, but the field is a digest of
the prompt, not a fresh identity: two tenants sending the same prompt produce the
same key, and the cached answer (generated with the tenant's data) is shared."""
import hashlib

from cachetools import LRUCache

_ANSWER_CACHE: LRUCache = LRUCache(maxsize=1024)


class Entry:
    def __init__(self, prompt: str):
        self.prompt = prompt
        self.digest = hashlib.sha256(prompt.encode()).hexdigest()


def answer(tenant_id: str, prompt: str, generate) -> str:
    entry = Entry(prompt)
    key = entry.digest
    hit = _ANSWER_CACHE.get(key)
    if hit is not None:
        return hit
    out = generate(tenant_id, prompt)
    _ANSWER_CACHE[key] = out
    return out
