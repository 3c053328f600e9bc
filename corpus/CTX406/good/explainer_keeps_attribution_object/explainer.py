# expect: none
"""torch_geometric's CaptumExplainer: each call builds an attribution object around the
caller's model and keeps it for inspection. It is an object that holds the model (and
the index it was asked about), not a tensor of the call."""
from typing import Optional, Union

import torch
from torch import Tensor

from .wrappers import CaptumModel


class CaptumExplainer(torch.nn.Module):
    def __init__(self, attribution_method_class):
        super().__init__()
        self.attribution_method_class = attribution_method_class

    def forward(self, model: torch.nn.Module, x: Tensor, edge_index: Tensor, *,
                target: Tensor, index: Optional[Union[int, Tensor]] = None) -> Tensor:
        captum_model = CaptumModel(model, "node", index)
        self.attribution_method_instance = self.attribution_method_class(captum_model)
        return self.attribution_method_instance.attribute(x, target=target, additional_forward_args=(edge_index,))
