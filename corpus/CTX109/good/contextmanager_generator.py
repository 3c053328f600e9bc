# expect: none
"""A @contextmanager generator runs __enter__ and __exit__ in the caller's Context: fine."""
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar

current_tenant: ContextVar[str | None] = ContextVar("current_tenant", default=None)


@contextmanager
def tenant_scope(tenant_id: str):
    token = current_tenant.set(tenant_id)
    try:
        yield
    finally:
        current_tenant.reset(token)


@asynccontextmanager
async def async_tenant_scope(tenant_id: str):
    token = current_tenant.set(tenant_id)
    try:
        yield
    finally:
        current_tenant.reset(token)
