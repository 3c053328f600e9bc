# expect: 20 CTX503
"""Tenants hash by their display title, and a memoized method is keyed on `self`: two
tenants with the same title share one quota."""
from functools import lru_cache


class Tenant:
    def __init__(self, title: str, tenant_id: str, store):
        self.title = title
        self.tenant_id = tenant_id
        self.store = store

    def __hash__(self) -> int:
        return hash(self.title)

    def __eq__(self, other) -> bool:
        return isinstance(other, Tenant) and other.title == self.title

    @lru_cache(maxsize=32)  # noqa: B019
    def quota(self) -> int:
        return self.store.quota(self.tenant_id)
