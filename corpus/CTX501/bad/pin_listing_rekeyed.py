# expect: 30 CTX501 cache salt
# expect: 35 CTX501 cache salt
"""Near misses of a listing: a child key built from a walked parent key and new
tokens is a new key, and a key rebuilt from a filtered entry's parts drops the salt
the filter checked."""
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple


@dataclass(frozen=True)
class ObjectKey:
    model_name: str
    chunk_hash: bytes
    cache_salt: Optional[str] = None


@dataclass(frozen=True)
class ChildKey:
    parent: ObjectKey
    tokens: Tuple[int, ...]


class PinTable:
    def __init__(self):
        self._pin_block_counts: Dict[ObjectKey, int] = {}

    def children(self, tokens: List[int], cache_salt: str) -> List[ChildKey]:
        out = []
        for parent in self._pin_block_counts:
            out.append(ChildKey(parent, tuple(tokens)))
        return out

    def rekeyed(self, cache_salt: str) -> List[ObjectKey]:
        return [
            ObjectKey(k.model_name, k.chunk_hash)
            for k in self._pin_block_counts
            if k.cache_salt == cache_salt
        ]
