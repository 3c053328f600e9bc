# expect: none
"""The custom __hash__ and __repr__ include the id: equal keys mean the same tenant."""
from functools import lru_cache


class Tenant:
    def __init__(self, title: str, tenant_id: str, store):
        self.title = title
        self.tenant_id = tenant_id
        self.store = store

    def __hash__(self) -> int:
        return hash((self.tenant_id, self.title))

    def __eq__(self, other) -> bool:
        return isinstance(other, Tenant) and other.tenant_id == self.tenant_id

    def __repr__(self) -> str:
        return f"Tenant({self.tenant_id}, {self.title})"

    @lru_cache(maxsize=32)  # noqa: B019
    def quota(self) -> int:
        return self.store.quota(self.tenant_id)
