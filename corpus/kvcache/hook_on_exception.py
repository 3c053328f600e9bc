# expect: 31 CTX403 the forward hook's handle is kept only in self._hook and removed after the body returns; a body that raises leaves the hook installed and the next call overwrites the handle
# sandbox: E
"""An adapter manager that installs the active adapter as a forward hook for the
duration of a call. The handle lives in `self._hook` and `_end_call()` removes it
after the body returns: when the body raises, the hook (and the adapter it closes over) stays on the
base model for good, and the next call overwrites the only handle to it. After
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
        self._hook = None

    def load_adapter(self, name: str, weights_digest: str) -> LoraAdapter:
        self.adapters[name] = LoraAdapter(name, weights_digest, self.base_model[0].in_features).to(self.device)
        return self.adapters[name]

    def run_with_adapter(self, name: str, body: Callable[[nn.Module], object]):
        adapter = self.adapters[name]
        self._hook = self.base_model[0].register_forward_hook(
            lambda module, args, output: output + adapter.delta(args[0]))
        out = body(self.base_model)
        self._end_call()
        return out

    def _end_call(self) -> None:
        if self._hook is not None:
            self._hook.remove()
            self._hook = None

    def delete_adapter(self, name: str) -> None:
        self.adapters.pop(name, None)


def make_manager(device: str = "cpu"):
    return build(device, adapters=HookedAdapterManager(tiny_base_model(device), device))
