# expect: none
"""Reduced from lightrag's OpenSearch KV storage: the namespace is a field of a base
dataclass of another module, given to the constructor and never reassigned, so each
instance serves one namespace and its own pending-delete buffer is per namespace."""
from dataclasses import dataclass, field

from .base import BaseKVStorage


@dataclass
class SearchKVStorage(BaseKVStorage):
    client: object = field(default=None)

    def __init__(self, namespace, global_config, workspace=None):
        super().__init__(namespace=namespace, workspace=workspace or "", global_config=global_config)
        self.__post_init__()

    def __post_init__(self):
        self.workspace, self.index_name = self.workspace, f"{self.workspace}_{self.namespace}"
        self._pending_upserts: dict = {}
        self._pending_kv_deletes: set = set()

    async def get_by_id(self, id: str):
        if id in self._pending_kv_deletes:
            return None
        pending = self._pending_upserts.get(id)
        if pending is not None:
            return pending
        raise LookupError(f"{self.namespace} index {self.index_name} has no {id}")

    async def delete(self, ids: list):
        for doc_id in ids:
            self._pending_upserts.pop(doc_id, None)
            self._pending_kv_deletes.add(doc_id)
        print(f"[{self.workspace}] buffered {len(ids)} deletes in {self.namespace}")

    async def flush(self):
        deletes, self._pending_kv_deletes = self._pending_kv_deletes, set()
        failed = await self.client.bulk_delete(self.index_name, deletes, log_prefix=f"{self.namespace} flush:")
        self._pending_kv_deletes.update(failed)
