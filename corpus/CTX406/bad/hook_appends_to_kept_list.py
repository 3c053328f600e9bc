# expect: 17 CTX403 bound method hooked onto the caller's model and the handle dropped: the model keeps the probe alive
# expect: 21 CTX406 every forward's attention output is appended to the long-lived probe and never cleared
import torch
from torch import nn


class AttentionProbe:
    """Collects attention outputs from a served model for debugging dashboards."""

    def __init__(self) -> None:
        self.captured: list[torch.Tensor] = []
        self.calls = 0

    def attach(self, model: nn.Module) -> None:
        for idx, block in enumerate(model.model.layers):
            if idx % 4 == 0:
                block.self_attn.register_forward_hook(self._capture)

    def _capture(self, module: nn.Module, inputs, output) -> None:
        self.calls += 1
        self.captured.append(output[0])

    def summary(self) -> dict:
        return {"calls": self.calls, "n": len(self.captured)}
