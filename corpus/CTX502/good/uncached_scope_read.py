# expect: none
"""Reading the tenant ContextVar in an ordinary function is fine; the memoized part
is keyed on the tenant explicitly."""
from contextvars import ContextVar
from functools import lru_cache

current_tenant: ContextVar[str] = ContextVar("current_tenant")


@lru_cache(maxsize=1024)
def branded_prompt(tenant: str, product: str) -> str:
    return f"You are the {product} assistant of {tenant}."


def system_prompt(product: str) -> str:
    tenant = current_tenant.get()
    return branded_prompt(tenant, product)
