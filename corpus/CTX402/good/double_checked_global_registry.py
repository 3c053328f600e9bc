# expect: none
"""A store registry built once, lazily, under a double-checked lock."""
import threading
from functools import lru_cache

_lock = threading.Lock()


class StoreRegistry:
    def __init__(self):
        self._builders = {}

    def register(self, scheme, builder):
        self._builders[scheme] = builder

    @lru_cache(maxsize=100)
    def get_store(self, uri: str):
        return self._builders[uri.split(":")[0]](uri)


_registry = None


def get_registry() -> StoreRegistry:
    global _registry
    if _registry is None:
        with _lock:
            if _registry is None:
                reg = StoreRegistry()
                reg.register("file", dict)
                _registry = reg
    return _registry
