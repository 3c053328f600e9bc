# expect: 17 CTX403
# expect: 20 CTX406
"""A probe hooks its own method onto a model it is handed and keeps no handle: the
model now references the probe (and every tensor it keeps) for as long as the model
lives, and nothing can ever take the hook off."""
import torch
from torch import nn


class NormProbe:
    def __init__(self, model: nn.Module, layer: str) -> None:
        self.values: list[torch.Tensor] = []
        self._attach(model, layer)

    def _attach(self, model: nn.Module, layer: str) -> None:
        target = dict(model.named_modules())[layer]
        target.register_forward_hook(self._on_output)

    def _on_output(self, module, args, output) -> None:
        self.values.append(output.norm())
