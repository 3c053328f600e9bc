# expect: 20 CTX406
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.attn = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        q, k, v = (y.transpose(1, 2) for y in (q, k, v))
        attn = (q @ k.transpose(-2, -1)) / (d // self.heads) ** 0.5
        attn = attn.softmax(-1)
        self.last_attention = attn
        y = (attn @ v).transpose(1, 2).reshape(b, t, d)
        return self.out(y)
