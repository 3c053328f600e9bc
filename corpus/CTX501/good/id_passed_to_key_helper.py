# expect: none
"""Block hashes take the adapter id explicitly; the caller passes it from the
request, so every key the shared table sees is scoped to one adapter."""
import hashlib
from dataclasses import dataclass
from typing import Dict, List, Optional


@dataclass
class SeqRequest:
    request_id: str
    token_ids: List[int]
    lora_int_id: Optional[int] = None


def block_cache_key(lora_int_id: Optional[int], parent: str, chunk: List[int]) -> str:
    payload = repr((lora_int_id or 0, parent, tuple(chunk))).encode()
    return hashlib.sha256(payload).hexdigest()


class BlockTable:
    def __init__(self, block_size: int = 16):
        self.block_size = block_size
        self.block_cache: Dict[str, int] = {}

    def lookup(self, req: SeqRequest) -> List[int]:
        hits, parent = [], ""
        n = len(req.token_ids) // self.block_size
        for i in range(n):
            chunk = req.token_ids[i * self.block_size:(i + 1) * self.block_size]
            parent = block_cache_key(req.lora_int_id, parent, chunk)
            if parent not in self.block_cache:
                break
            hits.append(self.block_cache[parent])
        return hits

    def evict(self, key: str) -> None:
        self.block_cache.pop(key, None)
