# expect: none
"""Async retrieval service that carries the tenant in a ContextVar."""
import contextvars

_tenant = contextvars.ContextVar("tenant_id")


async def search(index, tenant_id: str, query: str) -> list:
    token = _tenant.set(tenant_id)
    try:
        hits = await index.query(query)
        return [h for h in hits if h["tenant"] == _tenant.get()]
    finally:
        _tenant.reset(token)
