# expect: none
import torch


class SteeringService:
    def __init__(self, model, layer: int):
        self.model = model
        self.layer = layer

    def generate(self, input_ids: torch.Tensor, vector: torch.Tensor):
        def add_vector(module, args, output):
            return output + vector
        handle = self.model.layers[self.layer].register_forward_hook(add_vector)
        try:
            return self.model(input_ids)
        finally:
            handle.remove()
