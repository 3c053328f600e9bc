# expect: 19 CTX501
"""A gateway caches completions in a process-wide LRU keyed by (model, prompt). The
tenant comes from a ContextVar set by the auth middleware and is passed to the
backend, so the cached text is tenant-specific — but the key is not."""
import contextvars

from cachetools import LRUCache

current_tenant: contextvars.ContextVar[str] = contextvars.ContextVar("current_tenant")

_COMPLETIONS: LRUCache = LRUCache(maxsize=1024)


async def complete(backend, model: str, prompt: str) -> str:
    tenant = current_tenant.get()
    # tenants have their own fine-tunes and system prompts behind the same
    # model alias, so the answer depends on `tenant`
    key = (model, prompt)
    if key in _COMPLETIONS:
        return _COMPLETIONS[key]
    out = await backend.generate(tenant=tenant, model=model, prompt=prompt)
    _COMPLETIONS[key] = out
    return out
