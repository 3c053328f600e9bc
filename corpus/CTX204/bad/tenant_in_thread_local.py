# expect: 10 CTX204
# expect: 12 CTX204
"""Async retrieval service that carries the tenant in a thread-local."""
import threading

_ctx = threading.local()


async def search(index, tenant_id: str, query: str) -> list:
    _ctx.tenant_id = tenant_id
    hits = await index.query(query)
    return [h for h in hits if h["tenant"] == _ctx.tenant_id]
