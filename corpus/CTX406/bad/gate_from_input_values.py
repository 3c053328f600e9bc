# expect: 15 CTX406
"""Near miss of the metadata-only mask: this gate is computed from the input's values,
so the stored tensor is an activation and keeps the graph behind it."""
import torch
import torch.nn as nn


class GatedBlock(nn.Module):
    def __init__(self, inner: nn.Module):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        gate = torch.sigmoid(x.mean(dim=-1, keepdim=True)).to(x.dtype)
        self.last_gate = 1 - torch.mean(gate)
        return self.inner(x) * gate
