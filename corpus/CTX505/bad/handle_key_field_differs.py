# expect: 34 CTX505
"""Near miss: two acquire sides store handles, but only one fills `key` with the key
it stored the handle under (the other keys by the digest and leaves `key` empty), so
releasing by `handle.key` misses those entries."""
import hashlib
from typing import Dict, List


def slot_key(model: str, digests: List[str]) -> str:
    return hashlib.sha256((model + "|".join(digests)).encode()).hexdigest()


_SLOTS: Dict[str, "SlotHandle"] = {}


class SlotHandle:
    def __init__(self, key: str, size: int):
        self.key = key
        self.size = size


def open_slot(model: str, digests: List[str], size: int) -> SlotHandle:
    key = slot_key(model, digests)
    _SLOTS[key] = SlotHandle(key, size)
    return _SLOTS[key]


def open_anonymous(model: str, digests: List[str], size: int) -> None:
    k = slot_key(model, digests)
    _SLOTS[k] = SlotHandle("", size)


def close(handle: SlotHandle) -> None:
    _SLOTS.pop(handle.key, None)
