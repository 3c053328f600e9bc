# expect: 21 CTX403
"""A re-entrancy guard (set, then cleared in finally) is no once-guard: every forward adds a hook."""
import torch.nn as nn


class Steered(nn.Module):
    def __init__(self, model, vector):
        super().__init__()
        self.model = model
        self.vector = vector
        self._in_forward = False

    def _steer(self, module, inputs, output):
        return output + self.vector

    def forward(self, input_ids):
        if self._in_forward:
            return self.model(input_ids)
        self._in_forward = True
        try:
            self.model.layers[10].register_forward_hook(self._steer)   # handle dropped, every call
            return self.model(input_ids)
        finally:
            self._in_forward = False
