# expect: none
# sandbox: pass
"""Prefix cache partitioned per (tenant salt, adapter). Multimodal prompts carry one
run of placeholder ids per image; every block hash also carries the request's image
digests, so requests with different images never share KV (they give up sharing the
text before the image, which is the price of the simple key). After vllm-project/vllm#8348 (mm hashes in block extra keys) and
SGLang's `pad_input_ids`.
"""
import hashlib
from dataclasses import dataclass
from typing import Hashable, List, Tuple

from common import PagedBlockManager, build

from ctxlint.sandbox import Request


@dataclass
class Seq:
    name: str
    token_ids: List[int]
    image_digests: Tuple[str, ...]
    partition: Hashable


class ScopedMultimodalCache(PagedBlockManager):
    """One prefix table per tagged (salt, adapter) scope; images appear as placeholder runs."""

    def make_seq(self, request: Request) -> Seq:
        scope = (("salt", request.tenant_salt),
                 ("adapter", request.adapter_id, request.adapter_digest))
        return Seq(request.request_id, list(request.token_ids), request.image_digests, scope)

    def block_hashes(self, seq: Seq) -> List[bytes]:
        out, parent, bs = [], b"", self.block_size
        for start in range(0, len(seq.token_ids) - len(seq.token_ids) % bs, bs):
            chunk = tuple(seq.token_ids[start:start + bs])
            parent = hashlib.blake2b(repr((parent, chunk, seq.image_digests)).encode(), digest_size=16).digest()
            out.append(parent)
        return out


def make_manager(device: str = "cpu"):
    return build(device, kv=ScopedMultimodalCache(64, 16, device))
