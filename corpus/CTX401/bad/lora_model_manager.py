# expect: 25 CTX401
"""A LoRA manager that caches every adapter it has ever served."""
import torch


class LoRAModel:
    def __init__(self, lora_int_id: int, tensors: dict):
        self.id = lora_int_id
        self.tensors = tensors


class LoRAModelManager:
    def __init__(self, base_model, device: str = "cuda"):
        self.base_model = base_model
        self.device = device
        self._registered_adapters = {}
        self._active = None

    def activate_adapter(self, lora_request) -> None:
        lora_int_id = lora_request.lora_int_id
        if lora_int_id not in self._registered_adapters:
            tensors = torch.load(lora_request.lora_path, map_location=self.device)
            model = LoRAModel(lora_int_id, tensors)
            # every adapter any request named stays resident on the GPU
            self._registered_adapters[lora_int_id] = model
        self._active = self._registered_adapters[lora_int_id]
