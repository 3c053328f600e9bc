# expect: 20 CTX503
"""A block digest folded by a plain `hash()` over the parent digest, the tokens and
an extra part naming the adapter by its label. Whatever the helpers are called,
the returned `hash()` is a key, and the label is reused when new weights are
loaded under the same name (`slot_uid` is the per-load id)."""
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
    return (adapter.label,)


def fold(parent: int, tokens: Sequence[int], adapter: Optional[AdapterSlot]) -> int:
    return hash((parent, tuple(tokens), _tag(adapter)))
