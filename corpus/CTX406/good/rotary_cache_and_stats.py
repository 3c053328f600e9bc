# expect: none
import torch
import torch.nn as nn


class RotaryEmbedding(nn.Module):
    def __init__(self, dim: int, base: float = 10000.0):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / base ** (torch.arange(0, dim, 2).float() / dim), persistent=False)
        self.cos_cached = None
        self.seq_len_cached = 0

    def forward(self, x: torch.Tensor, seq_len: int):
        if seq_len > self.seq_len_cached:
            t = torch.arange(seq_len, device=x.device, dtype=self.inv_freq.dtype)
            self.cos_cached = torch.outer(t, self.inv_freq).cos()  # a cache keyed by length
            self.seq_len_cached = seq_len
        self.last_batch_size = x.shape[0]
        return self.cos_cached[:seq_len].to(x.dtype)
