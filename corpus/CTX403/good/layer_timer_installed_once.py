# expect: none
"""The timer hooks its own methods onto every layer and keeps no handles, but the
runner installs it once, behind a flag the same branch sets: the timer is meant to
stay on the model for the model's life."""
import time

import torch


class LayerTimer:
    def __init__(self) -> None:
        self.started: dict[torch.nn.Module, float] = {}
        self.totals: dict[str, float] = {}

    def _start(self, module, args) -> None:
        self.started[module] = time.perf_counter()

    def _stop(self, module, args, output) -> None:
        name = type(module).__name__
        self.totals[name] = self.totals.get(name, 0.0) + time.perf_counter() - self.started.pop(module)

    def install(self, model: torch.nn.Module) -> None:
        for module in model.modules():
            module.register_forward_pre_hook(self._start)
            module.register_forward_hook(self._stop)


class ModelRunner:
    def __init__(self, model, profile_layers: bool):
        self.model = model
        self.profile_layers = profile_layers
        self.timer = LayerTimer()
        self._timer_installed = False

    def execute(self, batch):
        if self.profile_layers and not self._timer_installed:
            self.timer.install(self.model)
            self._timer_installed = True
        return self.model(batch)
