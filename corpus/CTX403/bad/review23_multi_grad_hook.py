# expect: 15 CTX403
"""torch.autograd.graph.register_multi_grad_hook returns a RemovableHandle too."""
import torch
from torch.autograd.graph import register_multi_grad_hook


class GradWatcher(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.seen = []

    def forward(self, x):
        params = list(self.model.parameters())
        torch.autograd.graph.register_multi_grad_hook(params, lambda grads: self.seen.append(grads))
        return self.model(x)
