# expect: 41 CTX505 release() indexes refs by one item's digest while acquire() keyed them by combine() over all items; refcounts never drop and embeddings outlive their requests
# sandbox: F
"""A vision embedding cache shared by requests carrying the same images. `acquire`
keys an entry by the combined digest of the request's items; `release` is called per
item and decrements by that item's own digest, which never matches, so every entry
stays referenced and the cache never drains. After sgl-project/sglang#20162.
"""
import hashlib
from dataclasses import dataclass
from typing import Callable, Dict, List, Sequence

import torch

from common import build


@dataclass(frozen=True)
class MMItem:
    digest: str


def combine(digests: Sequence[str]) -> str:
    return hashlib.sha256("|".join(digests).encode()).hexdigest()


class VisionEmbedCache:
    """Encoder outputs shared by requests with the same images, freed at refcount 0."""

    def __init__(self):
        self.entries: Dict[str, torch.Tensor] = {}
        self.refs: Dict[str, int] = {}

    def acquire(self, items: List[MMItem], compute: Callable[[List[MMItem]], torch.Tensor]) -> torch.Tensor:
        key = combine([it.digest for it in items])
        if key not in self.entries:
            self.entries[key] = compute(items)
        self.refs[key] = self.refs.get(key, 0) + 1
        return self.entries[key]

    def release(self, item: MMItem) -> None:
        key = item.digest
        if key in self.refs:
            self.refs[key] -= 1
            if self.refs[key] == 0:
                del self.refs[key]
                self.entries.pop(key, None)


class EncoderPart:
    """Adapts the cache to the sandbox's EncoderCache protocol."""

    def __init__(self, cache: VisionEmbedCache):
        self.cache = cache

    def acquire(self, request_id: str, image_digests: Sequence[str], compute):
        items = [MMItem(d) for d in image_digests]
        return self.cache.acquire(items, lambda its: compute([it.digest for it in its]))

    def release(self, request_id: str, image_digests: Sequence[str]) -> None:
        for d in image_digests:
            self.cache.release(MMItem(d))

    def num_entries(self) -> int:
        return len(self.cache.entries)


def make_manager(device: str = "cpu"):
    return build(device, encoder=EncoderPart(VisionEmbedCache()))
