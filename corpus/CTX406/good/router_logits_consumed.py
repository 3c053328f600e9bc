# expect: none
"""The same router, but the aux-loss reader takes the stored logits and clears the
slot, so nothing outlives the training step that produced it."""
import torch
from torch import nn


class TopKRouter(nn.Module):
    def __init__(self, hidden: int, experts: int, k: int = 2):
        super().__init__()
        self.gate = nn.Linear(hidden, experts, bias=False)
        self.k = k
        self.last_logits = None

    def pop_logits(self):
        logits, self.last_logits = self.last_logits, None
        return logits

    def forward(self, hidden_states: torch.Tensor):
        logits = self.gate(hidden_states)
        self.last_logits = logits
        weights, experts = torch.topk(logits.softmax(-1), self.k, dim=-1)
        return weights, experts
