# expect: none
"""Correct parts of a small LLM serving stack, shared by the sandbox corpus.

Each buggy/fixed pair in corpus/kvcache/ replaces exactly one part of this stack
(the prefix-cache key, the abort path, the adapter registry, the adapter hook, the
vision embedding cache, the training loop) and takes the rest from here, so the
sandbox's failures point at that one part. `ctxlint sandbox common.py:make_manager`
passes every check.

The block manager follows vLLM's prefix caching (a free-block queue whose cached
blocks stay hashed until reused; a chained block hash) and SGLang's
`pad_input_ids` (image placeholders replaced by digest-derived ids before hashing).
"""
import hashlib
import weakref
from collections import deque
from dataclasses import dataclass
from typing import Callable, Deque, Dict, Hashable, List, Optional, Sequence, Tuple

import torch
from torch import nn
from torch.nn import functional as F

from ctxlint.sandbox import IMAGE_TOKEN_ID, Request, Target

HEAD_DIM = 8


def pad_input_ids(token_ids: Sequence[int], image_digests: Sequence[str]) -> List[int]:
    """Replace each run of image placeholder ids by an id derived from that image's digest."""
    out, images, current = list(token_ids), iter(image_digests), None
    for i, tok in enumerate(out):
        if tok != IMAGE_TOKEN_ID:
            current = None
            continue
        if current is None:
            digest = next(images)
            current = 1_000_000 + int(hashlib.sha256(digest.encode()).hexdigest()[:12], 16)
        out[i] = current
    return out


class BlockPool:
    """Fixed pool of KV blocks; payloads live in one tensor on the serving device."""

    def __init__(self, num_blocks: int, block_size: int, device: str = "cpu"):
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.kv = torch.zeros((num_blocks, block_size, HEAD_DIM), device=device)
        self.free: Deque[int] = deque(range(num_blocks))
        self.refcnt = [0] * num_blocks

    def take(self) -> int:
        if not self.free:
            raise MemoryError("KV block pool exhausted")
        block = self.free.popleft()
        self.refcnt[block] = 1
        return block

    def ref(self, block: int) -> None:
        if self.refcnt[block] == 0:
            self.free.remove(block)
        self.refcnt[block] += 1

    def unref(self, block: int) -> None:
        self.refcnt[block] -= 1
        if self.refcnt[block] == 0:
            self.free.append(block)


class PagedBlockManager:
    """Paged KV blocks with prefix reuse inside a partition.

    Subclasses say how a request becomes a sequence (`make_seq`: its token ids and
    the partition its blocks are cached in) and how its full blocks are hashed
    (`block_hashes`). Finished requests leave their full blocks cached (hashed, in
    the free queue) until the pool hands them out again.
    """

    def __init__(self, num_blocks: int = 64, block_size: int = 16, device: str = "cpu"):
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.pool = BlockPool(num_blocks, block_size, device)
        self.cached: Dict[Hashable, Dict[bytes, int]] = {}
        self.cached_as: Dict[int, Tuple[Hashable, bytes]] = {}
        self.requests: Dict[str, object] = {}
        self.block_tables: Dict[str, List[int]] = {}
        self.prefix_refs: Dict[str, List[int]] = {}
        self.num_tokens: Dict[str, int] = {}

    # -- what subclasses define
    def make_seq(self, request: Request):
        raise NotImplementedError

    def block_hashes(self, seq) -> List[bytes]:
        raise NotImplementedError

    # -- the protocol
    def add_request(self, request: Request) -> None:
        self.requests[request.request_id] = self.make_seq(request)

    def match_prefix(self, request_id: str) -> List[int]:
        seq = self.requests[request_id]
        table = self.cached.get(seq.partition, {})
        usable = (len(seq.token_ids) - 1) // self.block_size
        hits: List[int] = []
        for block_hash in self.block_hashes(seq)[:usable]:
            block = table.get(block_hash)
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
            partition, block_hash = old
            self.cached[partition].pop(block_hash, None)
        return block

    def allocate(self, request_id: str) -> List[int]:
        seq = self.requests[request_id]
        hits = self.prefix_refs.setdefault(request_id, [])
        n_tokens = len(seq.token_ids)
        needed = -(-n_tokens // self.block_size) - len(hits)
        fresh = [self._take() for _ in range(needed)]
        table = self.cached.setdefault(seq.partition, {})
        for block_hash, block in zip(self.block_hashes(seq)[len(hits):], fresh):
            if block_hash not in table:
                table[block_hash] = block
                self.cached_as[block] = (seq.partition, block_hash)
        self.block_tables[request_id] = fresh
        self.num_tokens[request_id] = n_tokens
        return list(fresh)

    def append_tokens(self, request_id: str, token_ids: Sequence[int]) -> List[int]:
        table = self.block_tables[request_id]
        total = self.num_tokens[request_id] + len(token_ids)
        self.num_tokens[request_id] = total
        new = []
        while (len(table) + len(self.prefix_refs[request_id])) * self.block_size < total:
            new.append(self._take())
            table.append(new[-1])
        return new

    def _release(self, request_id: str) -> None:
        self.requests.pop(request_id, None)
        self.num_tokens.pop(request_id, None)
        for block in reversed(self.block_tables.pop(request_id, [])):
            self.pool.unref(block)
        for block in reversed(self.prefix_refs.pop(request_id, [])):
            self.pool.unref(block)

    def finish(self, request_id: str) -> None:
        self._release(request_id)

    def abort(self, request_id: str) -> None:
        self._release(request_id)

    def free_block_ids(self) -> List[int]:
        return list(self.pool.free)

    def block_payload(self, block_id: int):
        return self.pool.kv[block_id]

    def request_registries(self):
        return {"requests": self.requests, "block_tables": self.block_tables,
                "prefix_refs": self.prefix_refs, "num_tokens": self.num_tokens}


@dataclass
class ScopedSeq:
    name: str
    token_ids: List[int]
    tenant_salt: Optional[str]
    adapter_id: Optional[str]
    adapter_digest: Optional[str]
    partition: Hashable = None


class ScopedPrefixCache(PagedBlockManager):
    """One prefix cache for everyone; every block hash carries the tagged scope."""

    def make_seq(self, request: Request) -> ScopedSeq:
        return ScopedSeq(request.request_id, pad_input_ids(request.token_ids, request.image_digests),
                         request.tenant_salt, request.adapter_id, request.adapter_digest)

    def block_hashes(self, seq: ScopedSeq) -> List[bytes]:
        out, parent, bs = [], b"", self.block_size
        for start in range(0, len(seq.token_ids) - len(seq.token_ids) % bs, bs):
            chunk = tuple(seq.token_ids[start:start + bs])
            parent = hashlib.blake2b(repr((parent, chunk, ("salt", seq.tenant_salt),
                                           ("adapter", seq.adapter_id, seq.adapter_digest))).encode(),
                                     digest_size=16).digest()
            out.append(parent)
        return out


class LoraAdapter(nn.Module):
    """A rank-r update `x @ A @ B` added to one linear layer's output."""

    def __init__(self, name: str, weights_digest: str, dim: int, rank: int = 4):
        super().__init__()
        g = torch.Generator().manual_seed(int(weights_digest[:8], 16))
        self.name = name
        self.weights_digest = weights_digest
        self.lora_a = nn.Parameter(torch.randn(dim, rank, generator=g) * 0.5)
        self.lora_b = nn.Parameter(torch.randn(rank, dim, generator=g) * 0.5)

    def delta(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.lora_a @ self.lora_b


def tiny_base_model(device: str, dim: int = 16) -> nn.Module:
    return nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim)).to(device)


class AdapterManager:
    """Loads LoRA adapters for a base model and applies one per call through a forward hook."""

    def __init__(self, base_model: nn.Module, device: str = "cpu"):
        self.base_model = base_model
        self.device = device
        self.adapters: Dict[str, LoraAdapter] = {}
        self._by_digest: "weakref.WeakValueDictionary[str, LoraAdapter]" = weakref.WeakValueDictionary()

    def load_adapter(self, name: str, weights_digest: str) -> LoraAdapter:
        adapter = self._by_digest.get(weights_digest)
        if adapter is None:
            dim = self.base_model[0].in_features
            adapter = LoraAdapter(name, weights_digest, dim).to(self.device)
            self._by_digest[weights_digest] = adapter
        self.adapters[name] = adapter
        return adapter

    def run_with_adapter(self, name: str, body: Callable[[nn.Module], object]):
        adapter = self.adapters[name]
        handle = self.base_model[0].register_forward_hook(
            lambda module, args, output: output + adapter.delta(args[0]))
        try:
            return body(self.base_model)
        finally:
            handle.remove()

    def delete_adapter(self, name: str) -> None:
        self.adapters.pop(name, None)


def combine(digests: Sequence[str]) -> str:
    return hashlib.sha256("|".join(digests).encode()).hexdigest()


class VisionEmbedCache:
    """Encoder outputs shared by requests with the same images, freed at refcount 0."""

    def __init__(self):
        self.entries: Dict[str, torch.Tensor] = {}
        self.refs: Dict[str, int] = {}

    def acquire(self, request_id: str, image_digests: Sequence[str], compute) -> torch.Tensor:
        key = combine(image_digests)
        if key not in self.entries:
            self.entries[key] = compute(image_digests)
        self.refs[key] = self.refs.get(key, 0) + 1
        return self.entries[key]

    def release(self, request_id: str, image_digests: Sequence[str]) -> None:
        key = combine(image_digests)
        if key in self.refs:
            self.refs[key] -= 1
            if self.refs[key] == 0:
                del self.refs[key]
                self.entries.pop(key, None)

    def num_entries(self) -> int:
        return len(self.entries)


def train_epoch(model: nn.Module, loader, optimizer) -> float:
    loss_sum = 0.0
    steps = 0
    for inputs, targets in loader:
        optimizer.zero_grad()
        loss = F.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
        loss_sum += loss.item()
        steps += 1
    return loss_sum / max(steps, 1)


def build(device: str = "cpu", kv=None, adapters=None, encoder=None, train=None) -> Target:
    """The stack with the given parts replaced; the others are this module's correct ones."""
    return Target(
        kv=kv if kv is not None else ScopedPrefixCache(64, 16, device),
        adapters=adapters if adapters is not None else AdapterManager(tiny_base_model(device), device),
        encoder=encoder if encoder is not None else VisionEmbedCache(),
        train_epoch=train if train is not None else train_epoch,
    )


def make_manager(device: str = "cpu") -> Target:
    return build(device)
