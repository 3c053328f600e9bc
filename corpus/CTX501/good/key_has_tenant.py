# expect: none
"""The fixed gateway cache: the tenant read from the ContextVar is part of the key."""
import contextvars

from cachetools import LRUCache

current_tenant: contextvars.ContextVar[str] = contextvars.ContextVar("current_tenant")

_COMPLETIONS: LRUCache = LRUCache(maxsize=1024)


async def complete(backend, model: str, prompt: str) -> str:
    tenant = current_tenant.get()
    key = (tenant, model, prompt)
    if key in _COMPLETIONS:
        return _COMPLETIONS[key]
    out = await backend.generate(tenant=tenant, model=model, prompt=prompt)
    _COMPLETIONS[key] = out
    return out
