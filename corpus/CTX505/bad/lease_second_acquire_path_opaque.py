# expect: 37 CTX505
"""Near miss of a lease that carries its key: one acquire path stores a lease built
here (its `owner` is the key), but the other stores what a factory returns, built
from the raw kb id; releasing by `lease.owner` misses the entries of that path."""
import asyncio
from dataclasses import dataclass
from typing import Any, Callable, Dict, Tuple
from uuid import UUID

_held_locks: Dict[Tuple[int, UUID], "_OperationLease"] = {}


@dataclass
class _OperationLease:
    owner: Tuple[int, UUID]
    release: Any


def _owner(kb_id: UUID) -> Tuple[int, UUID]:
    return id(asyncio.current_task()), kb_id


async def acquire(kb_id: UUID, release) -> _OperationLease:
    owner = _owner(kb_id)
    lease = _OperationLease(owner, release)
    _held_locks[owner] = lease
    return lease


async def acquire_shared(kb_id: UUID, make_lease: Callable[[UUID], _OperationLease]) -> _OperationLease:
    owner = _owner(kb_id)
    _held_locks[owner] = make_lease(kb_id)
    return _held_locks[owner]


async def release(lease: _OperationLease) -> None:
    _held_locks.pop(lease.owner, None)
    await lease.release()
