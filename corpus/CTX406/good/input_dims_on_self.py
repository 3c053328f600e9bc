# expect: none
"""Reduced from xinference's vendored ZoeDepth (zoedepth_v1.py `forward`): `h, w` are
unpacked from `x.shape`, so they are Python ints; storing them keeps no activation."""
import torch.nn as nn


class DepthHead(nn.Module):
    def __init__(self, core: nn.Module):
        super().__init__()
        self.core = core

    def forward(self, x, denorm=False):
        b, c, h, w = x.shape
        self.orig_input_width = w
        self.orig_input_height = h
        self.last_area = h * w
        self.last_numel = x.numel()
        return self.core(x, denorm=denorm)
