# expect: none
"""Layer dropout: the kept fraction comes from a fresh Bernoulli mask; the input lends it
only its device and dtype, so the stored scalar holds no activation and no graph."""
import torch
import torch.nn as nn


class LayerDropout(nn.Module):
    def __init__(self, prob: float, dim: int = 0):
        super().__init__()
        self.prob = prob
        self.dim = dim
        self.inferred = None

    def forward(self, function, input, *args):
        n = input.shape[self.dim]
        skip = torch.bernoulli(torch.Tensor(n * [self.prob])).to(input.device).to(input.dtype)
        self.inferred = 1 - torch.mean(skip)
        keep = (skip == 0).nonzero().squeeze()
        out = input.clone()
        out[keep] = function(torch.index_select(input, self.dim, keep), *args)
        return out
