# expect: 16 CTX403
# Near miss of the per-call tensor exemption: the hook goes on a Parameter, which
# lives as long as the model, on every forward call, and its handle is dropped: the
# hooks pile up on the weight.
import torch
from torch import nn


class ClippedLinear(nn.Module):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.linear = nn.Linear(n, n)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weight = self.linear.weight
        weight.register_hook(lambda g: g.clamp(-1, 1))
        return self.linear(x)
