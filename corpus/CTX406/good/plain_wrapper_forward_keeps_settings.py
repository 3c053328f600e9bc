# expect: none
"""A plan/run wrapper (flashinfer style) has a deprecated `forward()` that records its
settings on `self`; the class is no nn.Module, so nothing here is module state left by
a forward pass."""
from typing import Optional

import torch


class BatchDecodeWrapper:
    def __init__(self, workspace: torch.Tensor):
        self._workspace = workspace

    def run(self, q: torch.Tensor, kv: torch.Tensor) -> torch.Tensor:
        return q @ kv.transpose(-1, -2)

    def forward(self, q: torch.Tensor, kv: torch.Tensor, scale=None):
        self._last_q = q * 2
        return self.run(q, kv)
