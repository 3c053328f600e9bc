# expect: 28 CTX501
"""Prefix sharing keyed by a sha256 of the whole token prefix up to each block.
The request's tenant is a field of the request, but it never enters the digest:
a block one tenant filled is handed to another tenant's request with the same
prefix (the shared-prefix timing side channel of CVE-2025-46570)."""
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
            digest = hashlib.sha256(repr(job.tokens[:end]).encode()).hexdigest()
            slot = self.owner_of_prefix.get(digest)
            if slot is None:
                slot = self.idle.popleft()
                self.owner_of_prefix[digest] = slot
            got.append(slot)
        return got
