# expect: none
"""An unbounded cache on a backend that lives for the model, keyed on its layers
and dtypes, returning a flag: one small entry per layer and dtype."""
from functools import cache

import torch


class FusedAttention:
    def __init__(self, backend):
        self.backend = backend

    @cache
    def supports(self, layer, dtype) -> bool:
        return layer.head_dim in (64, 128) and dtype in (torch.float16, torch.bfloat16)

    def forward(self, q, k, v, layer):
        if self.supports(layer, q.dtype):
            return self.backend.fused(q, k, v)
        return self.backend.reference(q, k, v)
