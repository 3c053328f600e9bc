# expect: none
"""Leases get ids from a counter at allocation and are released by the id the
caller got back: `self._next_lease_id` and `lease.lease_id` are the same value."""
from dataclasses import dataclass
from typing import Dict


@dataclass
class Lease:
    lease_id: int
    nbytes: int


class StagingPool:
    def __init__(self):
        self._next_lease_id = 0
        self._outstanding: Dict[int, Lease] = {}

    def allocate(self, nbytes: int) -> Lease:
        self._next_lease_id += 1
        lease = Lease(self._next_lease_id, nbytes)
        self._outstanding[self._next_lease_id] = lease
        return lease

    def free(self, lease: Lease) -> None:
        self._outstanding.pop(lease.lease_id, None)
