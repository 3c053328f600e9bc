# expect: 16 CTX504
"""The KV offload store namespaces its keys by gluing the tenant id and the adapter
name together: tenant "ab" + adapter "c" equals tenant "a" + adapter "bc"."""
import hashlib
from typing import Dict


class OffloadStore:
    def __init__(self, backend):
        self.backend = backend
        self.kv_cache_index: Dict[str, int] = {}

    def put(self, tenant_id: str, adapter_name: str, block_tokens: tuple, handle: int) -> str:
        digest = hashlib.sha256(repr(block_tokens).encode()).hexdigest()
        # no separator, no labels
        namespace = tenant_id + adapter_name
        key = namespace + digest
        self.kv_cache_index[key] = handle
        self.backend.write(key, handle)
        return key

    def evict(self, key: str) -> None:
        self.kv_cache_index.pop(key, None)
