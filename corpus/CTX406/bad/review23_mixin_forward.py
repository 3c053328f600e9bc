# expect: 10 CTX406
"""A mixin's forward() is the Module's forward once mixed in."""
import torch
import torch.nn as nn


class AttentionCaptureMixin:
    def forward(self, hidden_states):
        attn = self.attn(hidden_states)
        self.last_attn = attn                 # kept on the module until the next forward
        return self.proj(attn)


class CapturingBlock(AttentionCaptureMixin, nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.proj = nn.Linear(dim, dim)
