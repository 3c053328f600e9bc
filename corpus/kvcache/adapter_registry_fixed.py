# expect: none
# sandbox: pass
"""An adapter manager that memoises loaded adapters by weights digest so a re-load of
the same weights is instant. The memo holds adapters weakly: once
`delete_adapter` drops the last name for an adapter, it (and its parameters) is freed. After
huggingface/peft#738 and vLLM's LoRA manager caches.
"""
import weakref
from typing import Callable, Dict

from torch import nn

from common import LoraAdapter, build, tiny_base_model


class AdapterManager:
    """Loads LoRA adapters for a base model and applies one per call through a forward hook."""

    def __init__(self, base_model: nn.Module, device: str = "cpu"):
        self.base_model = base_model
        self.device = device
        self.adapters: Dict[str, LoraAdapter] = {}
        self._by_digest: "weakref.WeakValueDictionary[str, LoraAdapter]" = weakref.WeakValueDictionary()

    def load_adapter(self, name: str, weights_digest: str) -> LoraAdapter:
        adapter = self._by_digest.get(weights_digest)
        if adapter is None:
            dim = self.base_model[0].in_features
            adapter = LoraAdapter(name, weights_digest, dim).to(self.device)
            self._by_digest[weights_digest] = adapter
        self.adapters[name] = adapter
        return adapter

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
    return build(device, adapters=AdapterManager(tiny_base_model(device), device))
