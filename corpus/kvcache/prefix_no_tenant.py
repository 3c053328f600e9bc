# expect: 37 CTX501 first-block hash omits seq.tenant_salt; tenants on the same adapter share prefix blocks (TTFT side channel, CVE-2025-46570)
# sandbox: C
"""Prefix cache partitioned per adapter (each loaded LoRA gets its own table), images
folded into the token ids. The block hash forgets the tenant's cache salt, so
tenants using the same adapter reuse each other's prefix blocks and can time each
other's prompts. After vllm-project/vllm#17045 (cache_salt) and CVE-2025-46570.
"""
import hashlib
from dataclasses import dataclass
from typing import List, Optional, Tuple

from common import PagedBlockManager, build, pad_input_ids

from ctxlint.sandbox import Request


@dataclass
class Seq:
    name: str
    token_ids: List[int]
    tenant_salt: Optional[str]
    partition: Tuple[Optional[str], Optional[str]]


class AdapterPrefixCache(PagedBlockManager):
    """One prefix table per (adapter label, weights digest)."""

    def make_seq(self, request: Request) -> Seq:
        return Seq(request.request_id, pad_input_ids(request.token_ids, request.image_digests),
                   request.tenant_salt, (request.adapter_id, request.adapter_digest))

    def block_hashes(self, seq: Seq) -> List[bytes]:
        out, parent, bs = [], b"", self.block_size
        for start in range(0, len(seq.token_ids) - len(seq.token_ids) % bs, bs):
            chunk = tuple(seq.token_ids[start:start + bs])
            if start == 0:
                parent = hashlib.blake2b(repr(chunk).encode(), digest_size=16).digest()
            else:
                parent = hashlib.blake2b(repr((parent, chunk)).encode(), digest_size=16).digest()
            out.append(parent)
        return out


def make_manager(device: str = "cpu"):
    return build(device, kv=AdapterPrefixCache(64, 16, device))
