# expect: none
# sandbox: pass
"""An adapter manager that installs the active adapter as a forward hook for the
duration of a call. The handle is a local removed in `finally`, so a body
that raises leaves no hook (and no reference to the adapter) behind. After
huggingface/peft#2761.
"""
from typing import Callable, Dict

from torch import nn

from common import LoraAdapter, build, tiny_base_model


class HookedAdapterManager:
    """Loads LoRA adapters for a base model and applies one per call through a forward hook."""

    def __init__(self, base_model: nn.Module, device: str = "cpu"):
        self.base_model = base_model
        self.device = device
        self.adapters: Dict[str, LoraAdapter] = {}

    def load_adapter(self, name: str, weights_digest: str) -> LoraAdapter:
        self.adapters[name] = LoraAdapter(name, weights_digest, self.base_model[0].in_features).to(self.device)
        return self.adapters[name]

    def run_with_adapter(self, name: str, body: Callable[[nn.Module], object]):
        adapter = self.adapters[name]
        handle = self.base_model[0].register_forward_hook(
            lambda module, args, output: output + adapter.delta(args[0]))
        try:
            return body(self.base_model)
        finally:
            handle.remove()

    def delete_adapter(self, name: str) -> None:
        self.adapters.pop(name, None)


def make_manager(device: str = "cpu"):
    return build(device, adapters=HookedAdapterManager(tiny_base_model(device), device))
