# expect: none
"""The probe keeps every handle and removes them in close()."""
from torch import nn


class NormProbe:
    def __init__(self, model: nn.Module, layers: list[str]) -> None:
        self.norms: dict[str, float] = {}
        modules = dict(model.named_modules())
        self._handles = [modules[name].register_forward_hook(self._on_output) for name in layers]

    def _on_output(self, module, args, output) -> None:
        self.norms[type(module).__name__] = float(output.detach().norm())

    def close(self) -> None:
        for h in self._handles:
            h.remove()
        self._handles.clear()
