# expect: none
"""The handle stores the slot key it was registered under and removes itself by it; a
sweep reads the key back from the handles the table holds; a second table's entries
get their key assigned after construction."""
import hashlib
from typing import Dict, List


def slot_key(model: str, digests: List[str]) -> str:
    return hashlib.sha256((model + "|".join(digests)).encode()).hexdigest()


_SLOTS: Dict[str, "SlotHandle"] = {}
_TAGS: Dict[str, "SlotHandle"] = {}


class SlotHandle:
    def __init__(self, key: str, size: int):
        self.key = key
        self.size = size
        self.tag = ""

    def close(self) -> None:
        _SLOTS.pop(self.key, None)


def open_slot(model: str, digests: List[str], size: int) -> SlotHandle:
    key = slot_key(model, digests)
    handle = SlotHandle(key, size)
    _SLOTS[key] = handle
    return handle


def sweep(max_size: int) -> None:
    for entry in list(_SLOTS.values()):
        if entry.size > max_size:
            del _SLOTS[entry.key]


def tag_slot(model: str, digests: List[str]) -> None:
    k = slot_key(model, digests)
    entry = SlotHandle("", 0)
    entry.tag = k
    _TAGS[k] = entry


def untag(entry: SlotHandle) -> None:
    _TAGS.pop(entry.tag, None)
