# expect: 20 CTX403
import functools

import torch.nn as nn


def _scale_inputs(module, args, *, scale):
    return tuple(a * scale for a in args)


class ScaledAdapter(nn.Module):
    def __init__(self, base: nn.Module, router: nn.Module):
        super().__init__()
        self.base = base
        self.router = router
        self._handle = None

    def forward(self, x):
        scale = self.router(x)
        self._handle = self.base.register_forward_pre_hook(functools.partial(_scale_inputs, scale=scale))
        return self.base(x)
