# expect: 29 CTX505
"""Shared prefix blocks are refcounted under a key derived from the tokens and the
adapter; `free()` decrements under the block's stored `content_hash`, which is the
token hash alone. Adapter blocks never reach zero and are never evicted."""
import hashlib
from typing import Dict, List


def block_key(token_ids: List[int], lora_int_id: int) -> str:
    return hashlib.sha256(repr((lora_int_id, tuple(token_ids))).encode()).hexdigest()


class Block:
    def __init__(self, token_ids: List[int]):
        self.token_ids = token_ids
        self.content_hash = hashlib.sha256(repr(tuple(token_ids)).encode()).hexdigest()


class SharedBlockPool:
    def __init__(self):
        self.ref_counts: Dict[str, int] = {}

    def allocate(self, block: Block, lora_int_id: int) -> str:
        key = block_key(block.token_ids, lora_int_id)
        self.ref_counts[key] = self.ref_counts.get(key, 0) + 1
        return key

    def free(self, block: Block) -> None:
        if block.content_hash not in self.ref_counts:
            return
        self.ref_counts[block.content_hash] -= 1
        if self.ref_counts[block.content_hash] == 0:
            del self.ref_counts[block.content_hash]
