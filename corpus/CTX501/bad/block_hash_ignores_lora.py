# expect: 19 CTX501
"""Prefix-cache block hashing in a paged KV-cache manager: the hash chains the parent
block and the token ids, but a sequence running under a LoRA adapter produces
different KV for the same tokens, so two adapters end up sharing blocks."""
from typing import List


class PrefixBlockHasher:
    def __init__(self, block_size: int = 16):
        self.block_size = block_size
        self.cached_block_hashes: dict = {}
        self.lora_blocks = 0

    def block_hash_for(self, seq, parent_hash: int, token_ids: List[int]) -> int:
        # the sequence's adapter is visible here (it is counted for metrics) ...
        if seq.lora_request is not None:
            self.lora_blocks += 1
        # ... but it never enters the hash
        return hash((parent_hash, tuple(token_ids)))

    def hashes(self, seq) -> List[int]:
        out, parent = [], 0
        toks = seq.prompt_token_ids
        for start in range(0, len(toks) - len(toks) % self.block_size, self.block_size):
            parent = self.block_hash_for(seq, parent, toks[start:start + self.block_size])
            out.append(parent)
        return out
