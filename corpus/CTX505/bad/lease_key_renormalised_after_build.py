# expect: 24 CTX505
"""Near miss of a lease that carries its key: the lease records the owner before the
owner is normalised, then is stored under the normalised owner, so the release by
`lease.owner` looks up a key no entry has."""
import asyncio
from dataclasses import dataclass
from typing import Any, Dict


_held_locks: Dict[str, "_OperationLease"] = {}


@dataclass
class _OperationLease:
    owner: str
    release: Any


def _normalise(owner: str) -> str:
    return owner.strip().lower()


async def _drop_lease(lease: _OperationLease) -> None:
    _held_locks.pop(lease.owner, None)
    await lease.release()


async def acquire(kb_owner: str, release) -> _OperationLease:
    lease = _OperationLease(kb_owner, release)
    kb_owner = _normalise(kb_owner)
    _held_locks[kb_owner] = lease
    await asyncio.sleep(0)
    return lease
