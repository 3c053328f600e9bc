# expect: 24 CTX503
"""CUDA graphs captured with an adapter's weights are cached per (adapter name,
batch size). Adapters are hot-reloaded under the same name, so after a reload the
stale graph (holding the old weights' pointers) is replayed."""
from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class LoadedAdapter:
    name: str         # chosen by the operator, reused across reloads
    load_id: int      # unique per load
    rank: int


class GraphRunner:
    def __init__(self, capture, capacity: int = 64):
        self._capture = capture
        self._capacity = capacity
        self._graph_cache: "OrderedDict[tuple, object]" = OrderedDict()

    def run(self, adapter: LoadedAdapter, batch_size: int, inputs):
        key = (adapter.name, batch_size)
        graph = self._graph_cache.get(key)
        if graph is None:
            graph = self._capture(adapter, batch_size)
            self._graph_cache[key] = graph
            if len(self._graph_cache) > self._capacity:
                self._graph_cache.popitem(last=False)
        return graph.replay(inputs)
