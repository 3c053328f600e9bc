# expect: 18 CTX406
"""Near miss of torch_geometric's CaptumExplainer: what is kept is the masked input
itself, a tensor computed from this call's features that carries their graph."""
from typing import Optional

import torch
from torch import Tensor


class MaskExplainer(torch.nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.mask = torch.nn.Parameter(torch.ones(num_features))

    def forward(self, model: torch.nn.Module, x: Tensor, edge_index: Tensor, *,
                index: Optional[int] = None) -> Tensor:
        masked = x * self.mask.sigmoid()
        self.masked_input = masked
        out = model(masked, edge_index)
        return out if index is None else out[index]
