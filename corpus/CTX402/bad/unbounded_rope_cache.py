# expect: 22 CTX402
"""Rotary table cached per (frames, height, width) with no bound: every new
resolution a request asks for adds a tensor that is never evicted."""
import functools

import torch
from torch import nn


class VideoRope(nn.Module):
    def __init__(self, dim: int, theta: float = 10000.0):
        super().__init__()
        inv = 1.0 / theta ** (torch.arange(0, dim, 2).float() / dim)
        self.register_buffer("inv_freq", inv, persistent=False)

    def forward(self, grid_sizes, device):
        out = []
        for frames, height, width in grid_sizes:
            out.append(self._table(frames, height, width).to(device))
        return torch.cat(out)

    @functools.lru_cache(maxsize=None)
    def _table(self, frames: int, height: int, width: int) -> torch.Tensor:
        pos = torch.arange(frames * height * width, dtype=torch.float32)
        return torch.outer(pos, self.inv_freq)
