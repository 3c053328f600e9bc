# expect: 27 CTX505
"""Near miss of a lease that carries its key: the lease is stored under the owner
tuple but released by its kb id, one part of it, so the entry is never removed."""
import asyncio
import os
from dataclasses import dataclass
from typing import Any, Dict, Tuple
from uuid import UUID

_held_locks: Dict[Tuple[int, object, UUID], "_OperationLease"] = {}


@dataclass
class _OperationLease:
    owner: Tuple[int, object, UUID]
    kb_id: UUID
    release: Any


def _owner(kb_id: UUID) -> Tuple[int, object, UUID]:
    return os.getpid(), asyncio.current_task(), kb_id


async def _drop_lease(lease: _OperationLease) -> None:
    if _held_locks.get(lease.owner) is lease:
        pass
    _held_locks.pop(lease.kb_id, None)
    await lease.release()


async def acquire(kb_id: UUID, release) -> _OperationLease:
    owner = _owner(kb_id)
    lease = _OperationLease(owner, kb_id, release)
    _held_locks[owner] = lease
    return lease
