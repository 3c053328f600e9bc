# expect: none
"""A rotary submodule built once by the model that owns it: a small bounded cache
of cos/sin tables keyed on it keeps nothing the model does not keep anyway."""
import functools

import torch
from torch import nn


class AxisRope(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    @functools.lru_cache(maxsize=16)
    def tables(self, length: int, device_str: str):
        pos = torch.arange(length, device=torch.device(device_str), dtype=torch.float32)
        freqs = torch.outer(pos, torch.arange(0, self.dim, 2, dtype=torch.float32))
        return freqs.cos(), freqs.sin()


class Backbone(nn.Module):
    def __init__(self, dims: list[int]):
        super().__init__()
        self.ropes = nn.ModuleList([AxisRope(d) for d in dims])

    def forward(self, x):
        cos, sin = self.ropes[0].tables(x.shape[1], str(x.device))
        return x * cos + x * sin
