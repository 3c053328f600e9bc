# expect: 14 CTX406
"""The dims are plain ints, but the stored mask is a tensor built from the input."""
import torch.nn as nn


class MaskedBlock(nn.Module):
    def __init__(self, inner: nn.Module):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        b, t, d = x.shape
        scores = self.inner(x)
        self.scores_seen = scores * t
        return scores.softmax(-1)
