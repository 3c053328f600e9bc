# expect: none
"""Next to bad/digest_helper_any_name_used_as_key.py: the digest is a checksum written
next to each stored block for integrity checks, never a key any lookup uses."""
import hashlib
from dataclasses import dataclass
from typing import List, Optional

N = 16


@dataclass
class Job:
    salt: Optional[str]
    ids: List[int]


class Writer:
    def __init__(self, sink):
        self.sink = sink

    def step(self, job: Job, i: int) -> str:
        part = tuple(job.ids[i * N:(i + 1) * N])
        return hashlib.blake2b(repr(part).encode()).hexdigest()

    def write(self, job: Job) -> None:
        for i in range(len(job.ids) // N):
            checksum = self.step(job, i)
            self.sink.write({"block": i, "sha": checksum})
