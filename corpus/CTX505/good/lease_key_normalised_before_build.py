# expect: none
"""A lease that carries its key, with the owner normalised first: the name is rebound
before the lease is built, so the lease records the very key it is stored under and
the release by `lease.owner` finds the entry; a second acquire path builds its lease
the same way."""
from dataclasses import dataclass
from typing import Any, Dict


_active: Dict[str, "AdapterLease"] = {}


@dataclass
class AdapterLease:
    owner: str
    release: Any


def _normalise(owner: str) -> str:
    return owner.strip().lower()


def lease_adapter(adapter_owner: str, release) -> AdapterLease:
    adapter_owner = _normalise(adapter_owner)
    if adapter_owner in _active:
        return _active[adapter_owner]
    held = AdapterLease(adapter_owner, release)
    _active[adapter_owner] = held
    return held


def lease_adapter_now(adapter_owner: str, release) -> AdapterLease:
    key = _normalise(adapter_owner)
    _active[key] = AdapterLease(owner=key, release=release)
    return _active[key]


def return_adapter(held: AdapterLease) -> None:
    _active.pop(held.owner, None)
    held.release()
