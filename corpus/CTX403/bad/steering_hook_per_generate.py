# expect: 19 CTX403
"""Every `generate()` call hooks the steering method onto a decoder layer and drops the
handle: the model runs one more copy of the hook per request, forever."""
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
        decoder_layer = self.model.model.layers[layer]
        decoder_layer.register_forward_hook(self._steer)
        return self.model.generate(prompt_ids, **sampling)
