# expect: none
"""The block-hash extra keys carry the adapter's readable name for debugging next to
the content digest of its weights: reloading "sql-expert" with new weights under the
same name changes the digest, so stale KV blocks are never served."""
import hashlib
from dataclasses import dataclass
from typing import List, Optional, Tuple


@dataclass
class LoraSeq:
    request_id: str
    token_ids: List[int]
    lora_name: Optional[str]
    weights_digest: Optional[str]


class LoraPrefixCache:
    def __init__(self, block_size: int = 16):
        self.block_size = block_size

    def extra_keys(self, seq: LoraSeq) -> Tuple:
        if seq.lora_name is None:
            return ()
        return (("lora", seq.lora_name), ("weights", seq.weights_digest))

    def block_hashes(self, seq: LoraSeq) -> List[bytes]:
        out, parent = [], b""
        extra = self.extra_keys(seq)
        for start in range(0, len(seq.token_ids) - len(seq.token_ids) % self.block_size, self.block_size):
            chunk = tuple(seq.token_ids[start:start + self.block_size])
            parent = hashlib.blake2b(repr((parent, chunk, extra)).encode(), digest_size=16).digest()
            out.append(parent)
        return out
