# expect: 17 CTX403
"""Near miss of a callable extension: this one is called on every training step and
puts a torch gradient hook on the model's shared embedding weight each time. The
handle is dropped, so the hooks pile up and every backward runs all of them."""
import torch


class GradientScaleExtension:
    def __init__(self, scale: float):
        self.scale = scale

    def _scale(self, grad: torch.Tensor) -> torch.Tensor:
        return grad * self.scale

    def __call__(self, model: torch.nn.Module, batch: torch.Tensor) -> torch.Tensor:
        weight = model.get_input_embeddings().weight
        weight.register_hook(self._scale)
        return model(batch)
