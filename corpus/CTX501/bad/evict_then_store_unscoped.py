# expect: 18 CTX501
"""The function first drops a stale entry, then stores a tenant's completion under the
prompt alone. The removal is not the finding; the insertion is: tenant B reads
tenant A's completion for the same prompt."""
from typing import Dict

from cachetools import TTLCache

_COMPLETIONS: TTLCache = TTLCache(maxsize=2048, ttl=600)


def refresh(tenant_id: str, prompt: str, generate) -> str:
    key = prompt.strip()
    _COMPLETIONS.pop(key, None)
    answer = generate(tenant_id, prompt)
    if not answer:
        return ""
    _COMPLETIONS[key] = answer
    return answer
