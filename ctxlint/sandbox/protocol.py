"""What the runtime sandbox drives: the protocol a KV-cache manager (and the parts of a
serving stack around it) implements, and a thin adapter layer for existing managers.

This module never imports torch: the linter imports `ctxlint.sandbox` freely, and
only the sandbox's child process touches torch (lazily, in `scenario`).

The shape follows vLLM's block manager (`get_computed_blocks` / `allocate_slots` /
`free`, a free-block queue whose cached blocks stay hashed until reused) and
SGLang's radix cache (namespaced prefix reuse, `pad_input_ids` for image tokens).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Protocol, Sequence, Sized, runtime_checkable

#: Token id a request uses for every position covered by an image (one block per
#: image in the workload); the image itself is identified by its digest only.
IMAGE_TOKEN_ID = 32000


@dataclass(frozen=True)
class Request:
    """One synthetic request, as the sandbox hands it to the manager.

    Attributes:
        request_id: unique per request and round ("r0-t1-A-0").
        tenant_id: the tenant ("t1").
        tenant_salt: the tenant's prefix-cache salt (vLLM `cache_salt`), or None.
        adapter_id: the adapter's label ("A", "B", "X"), None for the base model.
        adapter_digest: content digest of the adapter weights; a reload under the same
            label with new weights has a new digest. None for the base model or an
            adapter served by label only.
        token_ids: the prompt's token ids; image positions hold `IMAGE_TOKEN_ID`.
        image_digests: one digest per image, in prompt order (each image covers one
            block of `IMAGE_TOKEN_ID`s).
    """

    request_id: str
    tenant_id: str
    tenant_salt: Optional[str]
    adapter_id: Optional[str]
    adapter_digest: Optional[str]
    token_ids: tuple[int, ...]
    image_digests: tuple[str, ...] = ()

    @property
    def scope(self) -> tuple:
        """(tenant salt, adapter id, adapter digest, image digests): what must separate KV."""
        return (self.tenant_salt, self.adapter_id, self.adapter_digest, self.image_digests)


@runtime_checkable
class KVCacheManager(Protocol):
    """A paged KV-cache manager with prefix reuse (the required part of a target).

    Block ids are ints in `range(num_blocks)`. A request goes through
    `add_request` (queued) -> `match_prefix` (reuse cached blocks, holding a
    reference) -> `allocate` (fresh blocks for the rest of the prompt) ->
    `append_tokens`* (decode) -> `finish`; `abort` may come at any of those points
    and must release whatever the request holds by then.
    """

    num_blocks: int
    block_size: int

    def add_request(self, request: Request) -> None:
        """Queue a request; nothing is allocated yet."""

    def match_prefix(self, request_id: str) -> list[int]:
        """Block ids of the cached full-block prefix the request may reuse, in order.

        The manager holds a reference on each until the request finishes or aborts.
        """

    def allocate(self, request_id: str) -> list[int]:
        """Fresh block ids for the rest of the prompt (after the matched prefix), in order.

        Raises:
            MemoryError (or any exception): no free block left.
        """

    def append_tokens(self, request_id: str, token_ids: Sequence[int]) -> list[int]:
        """Record decoded tokens; returns the block ids newly allocated for them."""

    def finish(self, request_id: str) -> None:
        """Normal end of a request: free its blocks (cached ones stay reusable)."""

    def abort(self, request_id: str) -> None:
        """End a request at any point (queued, matched, running); never raises for a known id."""

    def free_block_ids(self) -> list[int]:
        """The free list, in eviction order (cached-but-unreferenced blocks included)."""

    def block_payload(self, block_id: int) -> Any:
        """The block's KV payload, a torch tensor view the sandbox fills and reads."""

    def request_registries(self) -> Mapping[str, Sized]:
        """Every per-request container, by name (must all be empty when no request is live)."""


@runtime_checkable
class AdapterHost(Protocol):
    """Adapters (LoRA) applied to a torch base model through forward hooks."""

    base_model: Any  # torch.nn.Module

    def load_adapter(self, name: str, weights_digest: str) -> Any:
        """Load an adapter; returns the adapter object (weak-referenceable, e.g. a Module)."""

    def run_with_adapter(self, name: str, body: Callable[[Any], Any]) -> Any:
        """Install the adapter's hooks on the base model, call `body(base_model)`, remove them.

        `body` may raise; the exception propagates and the hooks must be gone anyway.
        """

    def delete_adapter(self, name: str) -> None:
        """Unload an adapter: no reference to it may remain afterwards."""


@runtime_checkable
class EncoderCache(Protocol):
    """Vision/encoder embedding cache shared by requests carrying the same images."""

    def acquire(self, request_id: str, image_digests: Sequence[str], compute: Callable[[Sequence[str]], Any]) -> Any:
        """Embeddings for the request's images, computed once and reference-counted."""

    def release(self, request_id: str, image_digests: Sequence[str]) -> None:
        """Drop the request's reference; unreferenced entries are freed."""

    def num_entries(self) -> int:
        """Embeddings currently held."""


#: `train_epoch(model, loader, optimizer) -> mean loss` (a float or a tensor).
TrainEpoch = Callable[[Any, Any, Any], Any]


@dataclass
class Target:
    """What a factory (`module.py:make_manager`) returns: the KV manager and the optional
    parts of the stack around it. A part left None makes its check report "skip".
    """

    kv: KVCacheManager
    adapters: Optional[AdapterHost] = None
    encoder: Optional[EncoderCache] = None
    train_epoch: Optional[TrainEpoch] = None


_KV_METHODS = ("add_request", "match_prefix", "allocate", "append_tokens", "finish", "abort",
               "free_block_ids", "block_payload", "request_registries")


class AdaptedKV:
    """A `KVCacheManager` that forwards to an existing manager whose methods have other names.

    Example (a manager with vLLM-like names)::

        kv = AdaptedKV(mgr, num_blocks=64, block_size=16,
                       match_prefix="get_computed_blocks", allocate="allocate_slots",
                       finish="free", free_block_ids=lambda: list(mgr.pool.free))

    Each keyword maps a protocol method to a method name on `obj` or to a callable;
    unmapped protocol methods are looked up on `obj` under their own name.

    Raises:
        TypeError: a protocol method is neither mapped nor present on `obj`.
    """

    def __init__(self, obj: Any, *, num_blocks: int, block_size: int, **methods: "str | Callable"):
        unknown = set(methods) - set(_KV_METHODS)
        if unknown:
            raise TypeError(f"not a KVCacheManager method: {', '.join(sorted(unknown))}")
        self.num_blocks = num_blocks
        self.block_size = block_size
        missing = []
        for m in _KV_METHODS:
            spec = methods.get(m, m)
            fn = spec if callable(spec) else getattr(obj, spec, None)
            if fn is None:
                missing.append(m)
            else:
                setattr(self, m, fn)
        if missing:
            raise TypeError(f"{type(obj).__name__} lacks {', '.join(missing)}; map them with keywords")


def as_target(obj: Any) -> Target:
    """Normalise what a factory returned: a `Target`, or a bare `KVCacheManager`.

    Raises:
        TypeError: `obj` is neither, naming the missing methods.
    """
    if isinstance(obj, Target):
        t = obj
    else:
        t = Target(kv=obj)
    miss = [m for m in (*_KV_METHODS, "num_blocks", "block_size") if not hasattr(t.kv, m)]
    if miss:
        raise TypeError(f"factory returned {type(obj).__name__}, which lacks {', '.join(miss)} "
                        "(return ctxlint.sandbox.Target or wrap the manager in AdaptedKV)")
    return t
