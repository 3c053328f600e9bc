# expect: none
# sandbox: pass
"""One prefix table for everyone; the first block's hash carries the request's extra
keys (vLLM's `_gen_extra_keys` shape: whichever of adapter, weights digest and cache
salt are present, concatenated). Each part is tagged with its kind, so an adapter
labelled "X" and a cache salt "X" can no longer produce the same keys.
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
    lora_name: Optional[str]
    weights_digest: Optional[str]
    cache_salt: Optional[str]
    partition: None = None


class SharedPrefixCache(PagedBlockManager):
    """A single prefix table; scope goes into the hash as extra keys."""

    def make_seq(self, request: Request) -> Seq:
        return Seq(request.request_id, pad_input_ids(request.token_ids, request.image_digests),
                   request.adapter_id, request.adapter_digest, request.tenant_salt)

    def extra_keys(self, seq: Seq) -> Tuple:
        lora_keys = [("lora", seq.lora_name)] if seq.lora_name else []
        weight_keys = [("weights", seq.weights_digest)] if seq.weights_digest else []
        salt_keys = [("cache_salt", seq.cache_salt)] if seq.cache_salt else []
        return tuple(lora_keys + weight_keys + salt_keys)

    def block_hashes(self, seq: Seq) -> List[bytes]:
        out, parent, bs = [], b"", self.block_size
        extra = self.extra_keys(seq)
        for start in range(0, len(seq.token_ids) - len(seq.token_ids) % bs, bs):
            chunk = tuple(seq.token_ids[start:start + bs])
            parent = hashlib.blake2b(repr((parent, chunk, extra)).encode(), digest_size=16).digest()
            out.append(parent)
        return out


def make_manager(device: str = "cpu"):
    return build(device, kv=SharedPrefixCache(64, 16, device))
