# expect: 18 CTX501 tenant
"""Near miss of a construction-time namespace: a setter switches the inherited
namespace, so one instance serves several namespaces in turn and its memo
keyed by the bare id mixes them."""
from .base import BaseKVStorage


class SwitchingKVStorage(BaseKVStorage):
    def __init__(self, namespace, client):
        super().__init__(namespace=namespace)
        self.client = client
        self._kv_cache: dict = {}

    def use_namespace(self, namespace: str):
        self.namespace = namespace

    def get(self, id: str):
        got = self._kv_cache.get(id)
        if got is None:
            got = self.client.fetch(self.namespace, id)
            self._kv_cache[id] = got
        return got
