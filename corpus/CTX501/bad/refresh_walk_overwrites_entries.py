# expect: 24 CTX501 tenant
"""Near miss of walking a cache by its own keys: the refresh walks the stored keys
but writes, under every one of them, an answer rendered for the calling tenant, so
the next reader of any prompt gets that tenant's answer."""
from typing import Dict

_COMPLETION_CACHE: Dict[str, str] = {}


def render(tenant_id: str, prompt_digest: str) -> str:
    return f"{tenant_id}:{prompt_digest}"


def completion(prompt_digest: str, tenant_id: str) -> str:
    key = repr((tenant_id, prompt_digest))
    if len(_COMPLETION_CACHE) >= 4096:
        _COMPLETION_CACHE.pop(next(iter(_COMPLETION_CACHE)))
    return _COMPLETION_CACHE.setdefault(key, render(tenant_id, prompt_digest))


def refresh_completions(tenant_id: str) -> None:
    for digest in list(_COMPLETION_CACHE):
        if digest:
            _COMPLETION_CACHE[digest] = render(tenant_id, digest)
