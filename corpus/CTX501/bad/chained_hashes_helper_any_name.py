# expect: 26 CTX501
"""vLLM's chained block hashes in a helper whose name says nothing about keys: it
returns a list of builtin `hash()` values, which the caller uses as keys of the
shared block table. The request's adapter never enters them, so two adapters with one
prompt share KV blocks."""
from dataclasses import dataclass, field
from typing import Dict, List, Optional


@dataclass
class Req:
    tokens: List[int]
    adapter_id: Optional[int] = None
    blocks: List[int] = field(default_factory=list)


class Table:
    def __init__(self, size: int = 16):
        self.size = size
        self.entries: Dict[int, int] = {}

    def walk(self, req: Req) -> List[int]:
        prev = None
        acc = []
        for i in range(0, len(req.tokens) - len(req.tokens) % self.size, self.size):
            prev = hash((prev, tuple(req.tokens[i:i + self.size])))
            acc.append(prev)
        return acc

    def place(self, req: Req, free: List[int]) -> List[int]:
        for h, b in zip(self.walk(req), free):
            req.blocks.append(self.entries.setdefault(h, b))
        return req.blocks
