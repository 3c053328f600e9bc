# expect: none
"""The fixed twin: the tenant goes into the digested bytes, so each tenant's
prefix blocks live under its own digests."""
import hashlib
from collections import deque
from dataclasses import dataclass
from typing import Deque, Dict, List


@dataclass
class PrefillJob:
    tenant_id: str
    tokens: List[int]


class PrefixSlots:
    def __init__(self, slots: int, block: int = 32):
        self.block = block
        self.idle: Deque[int] = deque(range(slots))
        self.owner_of_prefix: Dict[str, int] = {}

    def reserve(self, job: PrefillJob) -> List[int]:
        got = []
        for end in range(self.block, len(job.tokens) + 1, self.block):
            digest = hashlib.sha256(repr((job.tenant_id, job.tokens[:end])).encode()).hexdigest()
            slot = self.owner_of_prefix.get(digest)
            if slot is None:
                slot = self.idle.popleft()
                self.owner_of_prefix[digest] = slot
            got.append(slot)
        return got
