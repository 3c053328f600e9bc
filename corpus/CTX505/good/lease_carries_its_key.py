# expect: none
"""Reduced from langflow's knowledge-base storage runtime: the lease is stored under
the owner tuple and carries that very tuple, so the release, possibly in another
task, finds the entry by `lease.owner`."""
import asyncio
import os
from dataclasses import dataclass
from typing import Any, Dict, Tuple
from uuid import UUID

_held_locks: Dict[Tuple[int, object, UUID], "_OperationLease"] = {}


@dataclass
class _OperationLease:
    owner: Tuple[int, object, UUID]
    release: Any
    users: int = 0


def _owner(kb_id: UUID) -> Tuple[int, object, UUID]:
    return os.getpid(), asyncio.current_task(), kb_id


async def _drop_lease(lease: _OperationLease) -> None:
    lease.users -= 1
    if not lease.users:
        if _held_locks.get(lease.owner) is lease:
            del _held_locks[lease.owner]
        await lease.release()


async def acquire(kb_id: UUID, release) -> _OperationLease:
    owner = _owner(kb_id)
    existing = _held_locks.get(owner)
    if existing is not None:
        return existing
    lease = _OperationLease(owner, release)
    _held_locks[owner] = lease
    return lease
