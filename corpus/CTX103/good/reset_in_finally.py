# expect: none
"""Thread-pool batch worker: the tenant is reset in finally."""
from contextvars import ContextVar

current_tenant: ContextVar[str | None] = ContextVar("current_tenant", default=None)


def embed_batch(tenant_id: str, texts: list[str], model) -> list[list[float]]:
    token = current_tenant.set(tenant_id)
    try:
        return model.encode(texts)
    finally:
        current_tenant.reset(token)
