# expect: none
"""A fixed-arity tuple keeps every part in its own position (None when absent), so
parts cannot slide into each other."""
from typing import Optional, Sequence

from cachetools import LRUCache

_PREFIX_CACHE: LRUCache = LRUCache(maxsize=4096)


def prefix_cache_key(tenant_id: Optional[str], adapter_id: Optional[int], token_ids: Sequence[int]) -> tuple:
    return (tenant_id, adapter_id, tuple(token_ids))


def lookup(tenant_id: Optional[str], adapter_id: Optional[int], token_ids: Sequence[int]):
    return _PREFIX_CACHE.get(prefix_cache_key(tenant_id, adapter_id, token_ids))
