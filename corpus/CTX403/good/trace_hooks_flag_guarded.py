# expect: none
"""The runner installs its range markers on the first traced step only: the `if`
tests a flag on the runner and the same branch sets it, so the hooks are registered
once per runner and stay for the model's life, as intended."""
import torch


def _push_range(module, args):
    torch.cuda.nvtx.range_push(type(module).__name__)


def _pop_range(module, args, output):
    torch.cuda.nvtx.range_pop()


class StepRunner:
    def __init__(self, model, trace: bool):
        self.model = model
        self.trace = trace
        self._markers_installed = False

    def execute(self, batch):
        if self.trace and not self._markers_installed:
            for module in self.model.modules():
                module.register_forward_pre_hook(_push_range)
                module.register_forward_hook(_pop_range)
            self._markers_installed = True
        return self.model(batch)
