# expect: none
"""The fixed twin of the inline block-hash chain: the adapter id is hashed into
every block's digest, so two adapters never share a physical KV block."""
from dataclasses import dataclass, field
from typing import Dict, List, Optional


@dataclass
class GenerationRequest:
    prompt_ids: List[int]
    adapter_id: Optional[int] = None
    block_table: List[int] = field(default_factory=list)


class PagedBlockManager:
    def __init__(self, num_blocks: int, block_size: int = 16):
        self.block_size = block_size
        self.free_blocks: List[int] = list(range(num_blocks))
        self.by_digest: Dict[int, int] = {}

    def assign_blocks(self, req: GenerationRequest) -> List[int]:
        digest = 0
        usable = len(req.prompt_ids) - len(req.prompt_ids) % self.block_size
        for start in range(0, usable, self.block_size):
            chunk = tuple(req.prompt_ids[start:start + self.block_size])
            digest = hash((digest, req.adapter_id, chunk))
            if digest not in self.by_digest:
                self.by_digest[digest] = self.free_blocks.pop()
            req.block_table.append(self.by_digest[digest])
        return req.block_table
