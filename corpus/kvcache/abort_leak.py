# expect: 102 CTX404 abort() frees the block table but leaves the request's prefix_refs entry, and the references it holds on cached prefix blocks, behind
# sandbox: A B
"""A block manager whose abort path was written for running requests only. A request
aborted after its prefix was matched (still queued for allocation, mid-decode, or
cancelled while its submit awaited the scheduler) keeps its `prefix_refs` entry, and
the shared prefix blocks it references never return to the free queue. After
vllm-project/vllm#16472 (per-request state left behind on abort) and the
block-leak-on-abort reports of prefix-caching engines.
"""
import hashlib
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

from common import BlockPool, build, pad_input_ids

from ctxlint.sandbox import Request


@dataclass
class Seq:
    token_ids: List[int]
    tenant_salt: Optional[str]
    adapter_id: Optional[str]
    adapter_digest: Optional[str]


class BlockSpaceManager:
    """Paged KV blocks with one prefix table; every block hash carries the tagged scope."""

    def __init__(self, num_blocks: int = 64, block_size: int = 16, device: str = "cpu"):
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.pool = BlockPool(num_blocks, block_size, device)
        self.cached: Dict[bytes, int] = {}
        self.cached_as: Dict[int, bytes] = {}
        self.seqs: Dict[str, Seq] = {}
        self.block_tables: Dict[str, List[int]] = {}
        self.prefix_refs: Dict[str, List[int]] = {}

    def block_hashes(self, seq: Seq) -> List[bytes]:
        out, parent, bs = [], b"", self.block_size
        for start in range(0, len(seq.token_ids) - len(seq.token_ids) % bs, bs):
            chunk = tuple(seq.token_ids[start:start + bs])
            parent = hashlib.blake2b(repr((parent, chunk, ("salt", seq.tenant_salt),
                                           ("adapter", seq.adapter_id, seq.adapter_digest))).encode(),
                                     digest_size=16).digest()
            out.append(parent)
        return out

    def add_request(self, request: Request) -> None:
        self.seqs[request.request_id] = Seq(pad_input_ids(request.token_ids, request.image_digests),
                                            request.tenant_salt, request.adapter_id, request.adapter_digest)

    def match_prefix(self, request_id: str) -> List[int]:
        seq = self.seqs[request_id]
        usable = (len(seq.token_ids) - 1) // self.block_size
        hits = []
        for block_hash in self.block_hashes(seq)[:usable]:
            block = self.cached.get(block_hash)
            if block is None:
                break
            self.pool.ref(block)
            hits.append(block)
        self.prefix_refs[request_id] = hits
        return list(hits)

    def _take(self) -> int:
        block = self.pool.take()
        old = self.cached_as.pop(block, None)
        if old is not None:
            self.cached.pop(old, None)
        return block

    def allocate(self, request_id: str) -> List[int]:
        seq = self.seqs[request_id]
        n_hit = len(self.prefix_refs.setdefault(request_id, []))
        fresh = [self._take() for _ in range(-(-len(seq.token_ids) // self.block_size) - n_hit)]
        for block_hash, block in zip(self.block_hashes(seq)[n_hit:], fresh):
            if block_hash not in self.cached:
                self.cached[block_hash] = block
                self.cached_as[block] = block_hash
        self.block_tables[request_id] = fresh
        return list(fresh)

    def append_tokens(self, request_id: str, token_ids: Sequence[int]) -> List[int]:
        seq = self.seqs[request_id]
        seq.token_ids.extend(token_ids)
        table = self.block_tables[request_id]
        new = []
        while (len(table) + len(self.prefix_refs[request_id])) * self.block_size < len(seq.token_ids):
            new.append(self._take())
            table.append(new[-1])
        return new

    def finish(self, request_id: str) -> None:
        del self.seqs[request_id]
        for block in reversed(self.block_tables.pop(request_id)):
            self.pool.unref(block)
        for block in reversed(self.prefix_refs.pop(request_id)):
            self.pool.unref(block)

    def abort(self, request_id: str) -> None:
        self.seqs.pop(request_id, None)
        for block in reversed(self.block_tables.pop(request_id, [])):
            self.pool.unref(block)

    def free_block_ids(self) -> List[int]:
        return list(self.pool.free)

    def block_payload(self, block_id: int):
        return self.pool.kv[block_id]

    def request_registries(self) -> Dict[str, Dict]:
        return {"seqs": self.seqs, "block_tables": self.block_tables, "prefix_refs": self.prefix_refs}


def make_manager(device: str = "cpu"):
    return build(device, kv=BlockSpaceManager(64, 16, device))
