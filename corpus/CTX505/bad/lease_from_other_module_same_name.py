# expect: 31 CTX505
"""Near miss of a lease that carries its key: the stored lease is built by another
module's `Lease`, whose fields this file cannot see, only named like this file's
`Lease` record; the release by `lease.owner` reads a field nothing here set to the key."""
from dataclasses import dataclass
from typing import Any, Dict, Tuple

import kb_leases

_held_locks: Dict[Tuple[str, str], "Lease"] = {}


@dataclass
class Lease:
    owner: Tuple[str, str]
    release: Any


def _owner(tenant: str, kb_name: str) -> Tuple[str, str]:
    return tenant, kb_name.lower()


def acquire(tenant: str, kb_name: str, release) -> "Lease":
    owner = _owner(tenant, kb_name)
    lease = kb_leases.Lease(kb_name, owner, release)
    _held_locks[owner] = lease
    return lease


def drop(lease: Lease) -> None:
    _held_locks.pop(lease.owner, None)
