# expect: none
# sandbox: pass
"""Prefix cache partitioned per tenant (SGLang-style namespaces), images folded into
the token ids by `pad_input_ids`. The block hash carries the LoRA request (label and
weights digest), so adapters never share KV. After vllm-project/vllm#3263.
"""
import hashlib
from dataclasses import dataclass
from typing import List, Optional

from common import PagedBlockManager, build, pad_input_ids

from ctxlint.sandbox import Request


@dataclass(frozen=True)
class LoRARequest:
    lora_name: str
    weights_digest: Optional[str]


@dataclass
class Seq:
    name: str
    token_ids: List[int]
    lora_request: Optional[LoRARequest]
    partition: Optional[str]


class TenantPrefixCache(PagedBlockManager):
    """One prefix table per tenant salt; blocks are hashed over the padded token ids."""

    def make_seq(self, request: Request) -> Seq:
        lora = None
        if request.adapter_id is not None:
            lora = LoRARequest(request.adapter_id, request.adapter_digest)
        return Seq(request.request_id, pad_input_ids(request.token_ids, request.image_digests),
                   lora, request.tenant_salt)

    def block_hashes(self, seq: Seq) -> List[bytes]:
        out, parent, bs = [], b"", self.block_size
        for start in range(0, len(seq.token_ids) - len(seq.token_ids) % bs, bs):
            chunk = tuple(seq.token_ids[start:start + bs])
            parent = hashlib.blake2b(repr((parent, chunk, seq.lora_request)).encode(), digest_size=16).digest()
            out.append(parent)
        return out


def make_manager(device: str = "cpu"):
    return build(device, kv=TenantPrefixCache(64, 16, device))
