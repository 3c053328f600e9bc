# expect: none
"""A profiler hooks its own methods onto a model it is handed and keeps no handle,
but the hooks only read the name table filled at registration: the model keeping
the profiler alive keeps nothing that grows per call."""
import torch
from torch import nn


class RangeProfiler:
    def __init__(self) -> None:
        self.names: dict[nn.Module, str] = {}

    def _before(self, module, args) -> None:
        torch.cuda.nvtx.range_push(self.names.get(module, "?"))

    def _after(self, module, args, output) -> None:
        torch.cuda.nvtx.range_pop()

    def attach(self, model: nn.Module, prefix: str = "model") -> None:
        for name, module in model.named_modules(prefix=prefix):
            if isinstance(module, nn.Dropout):
                continue
            module.register_forward_pre_hook(self._before)
            module.register_forward_hook(self._after)
            if module in self.names:
                raise ValueError("module {} appears twice".format(module))
            self.names[module] = name
