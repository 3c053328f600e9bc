# expect: 15 CTX401
"""Every activation loads a LoRA adapter through a local partial; nothing unloads it."""
import functools

from peft_utils import load_lora_adapter


class LoRAServer:
    def __init__(self, device):
        self.device = device
        self._adapters = {}

    def activate(self, path: str, scale: float = 1.0):
        load_adapter = functools.partial(load_lora_adapter, device=self.device, scale=scale)
        self._adapters[path] = load_adapter(path)
        return self._adapters[path]
