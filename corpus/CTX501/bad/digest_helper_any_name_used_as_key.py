# expect: 24 CTX501
"""A helper with a neutral name returns a blake2b digest of the parent key and the
block's tokens; the caller indexes the shared prefix table with it. The request's
tenant salt is never part of it, so tenants share cached prefixes (CVE-2025-46570)."""
import hashlib
from dataclasses import dataclass
from typing import Dict, List, Optional

N = 16


@dataclass
class Job:
    salt: Optional[str]
    ids: List[int]


class Prefixes:
    def __init__(self):
        self._table: Dict[str, int] = {}

    def step(self, job: Job, i: int, prev: str) -> str:
        part = tuple(job.ids[i * N:(i + 1) * N])
        return hashlib.blake2b(repr((prev, part)).encode()).hexdigest()

    def lookup(self, job: Job) -> List[int]:
        found, prev = [], ""
        for i in range(len(job.ids) // N):
            prev = self.step(job, i, prev)
            if prev not in self._table:
                break
            found.append(self._table[prev])
        return found
