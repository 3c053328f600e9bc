# expect: none
# A cached loss computes its loss on a detached copy each call and hooks that copy
# to feed the cached gradients back; the hook lives on the call's own tensor and is
# freed with it, so nothing accumulates across calls.
from functools import partial

import torch
from torch import nn


def _backward_hook(grad, cache):
    return grad * cache


class CachedLoss(nn.Module):
    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def calculate_loss_and_cache(self, logits):
        loss = logits.sum()
        cache = torch.ones_like(logits)
        return loss.detach().requires_grad_(), cache

    def forward(self, features):
        logits = self.model(features)
        loss, cache = self.calculate_loss_and_cache(logits)
        loss.register_hook(partial(_backward_hook, cache=cache))
        scaled = loss * 2
        scaled.register_hook(lambda g: g)
        return scaled
