# expect: none
"""The steering hook is registered for one `generate()` call and removed in `finally`;
`layer_names()` only reads the model after registering nothing."""
import torch


class ActivationSteerer:
    def __init__(self, model, direction: torch.Tensor, strength: float = 4.0):
        self.model = model
        self.direction = direction
        self.strength = strength

    def _steer(self, module, args, output):
        hidden = output[0] if isinstance(output, tuple) else output
        return hidden + self.strength * self.direction

    def generate(self, prompt_ids: torch.Tensor, layer: int, **sampling):
        handle = self.model.model.layers[layer].register_forward_hook(self._steer)
        try:
            return self.model.generate(prompt_ids, **sampling)
        finally:
            handle.remove()
