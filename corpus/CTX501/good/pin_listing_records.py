# expect: none
"""Reduced from lmcache's eviction controller `list_pins`: the records list keys the
pin table already holds (each with its own salt), filtered on the salt asked for; a
second listing wraps each walked key in a record."""
from dataclasses import dataclass
from typing import Dict, List, Optional


@dataclass(frozen=True)
class ObjectKey:
    model_name: str
    chunk_hash: bytes
    cache_salt: Optional[str] = None


@dataclass
class PinnedKey:
    key: ObjectKey
    pin_count: int


@dataclass
class ListedKey:
    key: ObjectKey


class PinTable:
    def __init__(self):
        self._pin_block_counts: Dict[ObjectKey, int] = {}

    def list_pins(self, cache_salt: str, model_name: str) -> List[PinnedKey]:
        return [
            PinnedKey(key=key, pin_count=count)
            for key, count in self._pin_block_counts.items()
            if (not cache_salt or key.cache_salt == cache_salt)
            and (not model_name or key.model_name == model_name)
        ]

    def list_keys(self, cache_salt: str) -> List[ListedKey]:
        out = []
        for k in sorted(self._pin_block_counts, key=repr):
            out.append(ListedKey(k))
        return out
