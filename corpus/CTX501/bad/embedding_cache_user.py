# expect: 23 CTX501
"""An embedding service personalises vectors with a per-user adapter, then caches
them in an instance-wide OrderedDict keyed by the text alone: user B gets user A's
personalised embedding for the same sentence."""
from collections import OrderedDict
from typing import Dict, List


class EmbeddingService:
    def __init__(self, encoder, capacity: int = 10_000):
        self._encoder = encoder
        self._capacity = capacity
        self._user_adapters: Dict[str, object] = {}
        self._embedding_cache: "OrderedDict[str, List[float]]" = OrderedDict()

    def set_adapter(self, user_id: str, adapter) -> None:
        self._user_adapters[user_id] = adapter

    def drop_adapter(self, user_id: str) -> None:
        self._user_adapters.pop(user_id, None)

    def embed(self, user_id: str, text: str) -> List[float]:
        cached = self._embedding_cache.get(text)
        if cached is not None:
            return cached
        vec = self._encoder(text, adapter=self._user_adapters.get(user_id))
        self._embedding_cache[text] = vec
        if len(self._embedding_cache) > self._capacity:
            self._embedding_cache.popitem(last=False)
        return vec
