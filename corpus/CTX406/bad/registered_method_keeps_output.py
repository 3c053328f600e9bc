# expect: 17 CTX406
"""The method handed to register_forward_hook keeps each forward's output on the
object: the latest activation (and, in training, its graph) stays alive between calls."""
import torch
from torch import nn


class OutputTap:
    def __init__(self, block: nn.Module) -> None:
        self.seen: torch.Tensor | None = None
        self._handle = block.register_forward_hook(self._keep)

    def close(self) -> None:
        self._handle.remove()

    def _keep(self, module, args, output) -> None:
        self.seen = output
