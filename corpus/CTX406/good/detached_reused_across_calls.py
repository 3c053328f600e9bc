# expect: none
"""Reduced from xinference's vendored MegaTTS3 rot_transformer.py: the attention map is
stored detached on purpose, and a later call with `reset_attn_weight=False` reads it back
in the other branch (state carried across calls, not a leaked activation)."""
import torch
import torch.nn as nn


class ReusableAttention(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, q, k, v, reset_attn_weight=None):
        attn_probs = torch.softmax(q @ k.transpose(-1, -2), dim=-1)
        if reset_attn_weight is not None:
            if reset_attn_weight:
                self.last_attn_probs = attn_probs.detach()
            else:
                attn_probs = self.last_attn_probs
        return self.proj(attn_probs @ v)
