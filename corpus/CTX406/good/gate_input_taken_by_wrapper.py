# expect: none
"""`forward()` parks the gate input on the module for the output projection, and the
wrapper `__init__` installs on that projection takes it and clears the slot on every
call: the `None` set in `__init__` is only the default, the wrapper is the clearing."""
import torch
from torch import nn


class GatedAttentionOutput(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.o_proj = nn.Linear(hidden, hidden)
        self.gate = nn.Linear(hidden, hidden)
        self._gate_input = None
        plain_forward = self.o_proj.forward

        def gated_forward(x):
            gate_input, self._gate_input = self._gate_input, None
            out = plain_forward(x)
            return out if gate_input is None else out * torch.sigmoid(self.gate(gate_input))

        self.o_proj.forward = gated_forward

    def forward(self, hidden_states: torch.Tensor, attn_out: torch.Tensor) -> torch.Tensor:
        self._gate_input = hidden_states
        return self.o_proj(attn_out)
