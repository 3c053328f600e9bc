# expect: 22 CTX406
"""Near miss of FastDropChunk's first-call masks: `new_epoch()` re-arms the flag, so the
stored value is rebuilt from a later batch, and here it is built from the batch itself
(a product with the input that carries its graph) and kept on the module."""
import torch
from torch import nn


class FeatureGate(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.first = True

    def new_epoch(self):
        self.first = True

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        if self.first:
            gate = torch.sigmoid(self.proj(feats)).mean(0, keepdim=True)
            self.first = False
            self.gate_values = gate
        return feats * self.gate_values
