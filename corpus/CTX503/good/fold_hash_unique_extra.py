# expect: none
"""The fixed twin: the extra part of the folded block digest is the adapter's
per-load id, so a reload under the same label gets new digests."""
from dataclasses import dataclass
from typing import Optional, Sequence


@dataclass
class AdapterSlot:
    label: str
    slot_uid: int
    path: str


def _tag(adapter: Optional[AdapterSlot]) -> tuple:
    if adapter is None:
        return ()
    return (adapter.slot_uid,)


def fold(parent: int, tokens: Sequence[int], adapter: Optional[AdapterSlot]) -> int:
    return hash((parent, tuple(tokens), _tag(adapter)))
