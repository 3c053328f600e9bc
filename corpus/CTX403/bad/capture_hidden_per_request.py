# expect: 14 CTX403
"""Steering service: each request registers a capture hook and drops the handle."""
import torch


class SteeringService:
    def __init__(self, model, layer: int):
        self.model = model
        self.layer = layer

    def generate(self, input_ids: torch.Tensor, vector: torch.Tensor):
        def add_vector(module, args, output):
            return output + vector
        self.model.layers[self.layer].register_forward_hook(add_vector)
        return self.model(input_ids)
