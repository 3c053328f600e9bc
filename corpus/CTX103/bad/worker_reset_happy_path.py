# expect: 11 CTX103
"""Thread-pool batch worker: binds the tenant for the log filter while it embeds."""
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar

current_tenant: ContextVar[str | None] = ContextVar("current_tenant", default=None)
_pool = ThreadPoolExecutor(max_workers=8)


def embed_batch(tenant_id: str, texts: list[str], model) -> list[list[float]]:
    token = current_tenant.set(tenant_id)
    vectors = model.encode(texts)  # raises on an oversized batch
    current_tenant.reset(token)
    return vectors


def submit(tenant_id: str, texts: list[str], model):
    return _pool.submit(embed_batch, tenant_id, texts, model)
