# expect: none
import torch.nn as nn


class GradClipper(nn.Module):
    """Hooks registered once at construction live exactly as long as the module: fine."""

    def __init__(self, model: nn.Module, max_norm: float):
        super().__init__()
        self.model = model
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(lambda t: t.grad.clamp_(-max_norm, max_norm))
        model.register_forward_hook(self._check_finite)

    def _check_finite(self, module, args, output):
        assert output.isfinite().all()

    def forward(self, x):
        return self.model(x)
