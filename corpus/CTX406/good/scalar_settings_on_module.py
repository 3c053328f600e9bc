# expect: none
"""A Module's forward records float/int arguments it was given (declared as such): plain
numbers, no activation."""
from typing import Optional

import torch
from torch import nn


class SoftCapAttention(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, logits_soft_cap: Optional[float] = None, rope_theta: float | None = None):
        self._logits_soft_cap = logits_soft_cap
        self._rope_theta = rope_theta * 1.0 if rope_theta is not None else None
        return self.proj(x)
