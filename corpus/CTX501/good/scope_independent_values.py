# expect: none
"""A tokenizer cache keyed by model name inside a tenant-aware handler: what is
cached (the tokenizer) does not depend on the tenant, so sharing it is right. The
per-request dict is local and dies with the call."""
from cachetools import LRUCache

_TOKENIZER_CACHE: LRUCache = LRUCache(maxsize=32)


def load_tokenizer(model: str):
    return object()


def count_tokens(tenant_id: str, model: str, messages: list) -> dict:
    tok = _TOKENIZER_CACHE.get(model)
    if tok is None:
        tok = load_tokenizer(model)
        _TOKENIZER_CACHE[model] = tok
    per_role_cache = {}
    for m in messages:
        per_role_cache[m["role"]] = per_role_cache.get(m["role"], 0) + len(m["content"])
    return {"tenant": tenant_id, "counts": per_role_cache}
