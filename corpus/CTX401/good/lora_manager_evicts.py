# expect: none
"""The fix: an LRU of adapters with a capacity, evicting the least recently used."""
from collections import OrderedDict

import torch


class LoRAModelManager:
    def __init__(self, base_model, max_loras: int = 8, device: str = "cuda"):
        self.base_model = base_model
        self.device = device
        self.max_loras = max_loras
        self._registered_adapters: "OrderedDict[int, dict]" = OrderedDict()

    def activate_adapter(self, lora_request) -> dict:
        lora_int_id = lora_request.lora_int_id
        if lora_int_id in self._registered_adapters:
            self._registered_adapters.move_to_end(lora_int_id)
        else:
            tensors = torch.load(lora_request.lora_path, map_location=self.device)
            self._registered_adapters[lora_int_id] = tensors
            if len(self._registered_adapters) > self.max_loras:
                self._registered_adapters.popitem(last=False)
        return self._registered_adapters[lora_int_id]
