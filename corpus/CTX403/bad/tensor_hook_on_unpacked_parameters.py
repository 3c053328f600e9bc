# expect: 19 CTX403
# Reported in review of stop 22's exemptions: a tensor hook on Parameters a helper hands back.
# (A real bug the first version of the exemption silenced.)
import torch
from torch import nn


class ClippedLinear(nn.Module):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.linear = nn.Linear(n, n)

    def _params(self):
        return self.linear.weight, self.linear.bias

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # unpacked from a call, but the call hands back the long-lived Parameters
        weight, bias = self._params()
        weight.register_hook(lambda g: g.clamp(-1, 1))
        return self.linear(x)
