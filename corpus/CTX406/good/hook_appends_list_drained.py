# expect: none
"""The probe's hook appends each captured output, and the dashboard drains the list on
every poll (`drain()` swaps in a fresh one), so captured activations live one poll."""
import torch
from torch import nn


class AttentionProbe:
    def __init__(self, model: nn.Module) -> None:
        self.captured: list[torch.Tensor] = []
        self.handles = [block.self_attn.register_forward_hook(self._capture) for block in model.model.layers]

    def _capture(self, module: nn.Module, inputs, output) -> None:
        self.captured.append(output[0])

    def drain(self) -> list:
        out, self.captured = self.captured, []
        return out

    def detach(self) -> None:
        for h in self.handles:
            h.remove()
        self.handles.clear()
