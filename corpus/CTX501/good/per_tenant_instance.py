# expect: none
"""Each tenant gets its own session object with its own prefix cache, so keys
inside it need no tenant id: the container itself is per tenant."""
from collections import OrderedDict


class TenantPrefixSession:
    def __init__(self, tenant_id: str, engine, capacity: int = 256):
        self.tenant_id = tenant_id
        self.engine = engine
        self.capacity = capacity
        self._prefix_cache: "OrderedDict[tuple, object]" = OrderedDict()

    def prefill(self, prompt_ids: list):
        key = tuple(prompt_ids)
        hit = self._prefix_cache.get(key)
        if hit is None:
            hit = self.engine.prefill(self.tenant_id, prompt_ids)
            self._prefix_cache[key] = hit
            if len(self._prefix_cache) > self.capacity:
                self._prefix_cache.popitem(last=False)
        return hit
