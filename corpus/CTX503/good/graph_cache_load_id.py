# expect: none
"""The fixed graph cache keys on the load id, which changes on every reload."""
from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class LoadedAdapter:
    name: str
    load_id: int
    rank: int


class GraphRunner:
    def __init__(self, capture, capacity: int = 64):
        self._capture = capture
        self._capacity = capacity
        self._graph_cache: "OrderedDict[tuple, object]" = OrderedDict()

    def run(self, adapter: LoadedAdapter, batch_size: int, inputs):
        key = (adapter.load_id, batch_size)
        graph = self._graph_cache.get(key)
        if graph is None:
            graph = self._capture(adapter, batch_size)
            self._graph_cache[key] = graph
            if len(self._graph_cache) > self._capacity:
                self._graph_cache.popitem(last=False)
        return graph.replay(inputs)
