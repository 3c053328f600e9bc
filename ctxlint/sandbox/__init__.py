"""Runtime sandbox: drive a KV-cache manager under synthetic multi-tenant load in a
child process and check that it frees its blocks and never shares them across
tenants, adapters or images (DESIGN.md, "Runtime sandbox").

- `protocol`: what the code under test implements (`KVCacheManager`, `AdapterHost`,
  `EncoderCache`, a `train_epoch` callable) and `Target` / `AdaptedKV`, the thin
  layer that wraps an existing manager in a few lines.
- `scenario`: the seeded workload and checks A-G (imports torch, child only).
- `runner`: `ctxlint sandbox TARGET` (spawned child, rlimits, timeout, report).

Importing this package never imports torch.
"""

from ctxlint.sandbox.protocol import (
    IMAGE_TOKEN_ID,
    AdaptedKV,
    AdapterHost,
    EncoderCache,
    KVCacheManager,
    Request,
    Target,
    TrainEpoch,
)

__all__ = ["IMAGE_TOKEN_ID", "AdaptedKV", "AdapterHost", "EncoderCache", "KVCacheManager",
           "Request", "Target", "TrainEpoch"]
