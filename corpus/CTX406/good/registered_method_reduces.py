# expect: none
"""The hook keeps a Python float, not the tensor."""
from torch import nn


class NormTap:
    def __init__(self, block: nn.Module) -> None:
        self.last_norm = 0.0
        self._handle = block.register_forward_hook(self._keep)

    def close(self) -> None:
        self._handle.remove()

    def _keep(self, module, args, output) -> None:
        self.last_norm = float(output.detach().norm())
