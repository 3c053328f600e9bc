# expect: 10 CTX402
"""Near miss: built under a None test of the global, but never stored into it: one per call."""
from functools import lru_cache


class StoreRegistry:
    def __init__(self, config):
        self.config = config

    @lru_cache(maxsize=100)
    def get_store(self, uri: str):
        return (self.config, uri)


_registry = None


def get_registry(config) -> StoreRegistry:
    global _registry
    if _registry is None:
        reg = StoreRegistry(config)
        return reg
    return _registry
