# expect: 12 CTX501 tenant
"""Near miss of a construction-time namespace: the instance is per namespace, but the
cache it writes is module-level, shared by every instance, so its key needs the
namespace."""
from .base import BaseKVStorage

_DOC_CACHE: dict = {}


class CachedKVStorage(BaseKVStorage):
    def get(self, id: str):
        got = _DOC_CACHE.get(id)
        if got is None:
            got = self.client.fetch(self.namespace, id)
            _DOC_CACHE[id] = got
        return got
