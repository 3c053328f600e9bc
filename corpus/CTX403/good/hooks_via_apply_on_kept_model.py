# expect: none
"""The checker keeps the model and reaches every submodule through
`self.model.apply(...)`: the model and the checker (with its frames) die together."""
import collections

import torch


class OverflowChecker:
    def __init__(self, model, keep_frames: int = 8):
        self.model = model
        self.frames = collections.deque([], keep_frames)
        self.model.apply(self._hook_one)

    def _hook_one(self, module):
        module.register_forward_hook(self._after_forward)

    def _after_forward(self, module, args, output):
        if isinstance(output, torch.Tensor) and not torch.isfinite(output).all():
            self.frames.append(type(module).__name__)
