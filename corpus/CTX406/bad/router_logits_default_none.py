# expect: 24 CTX406
"""The router declares `last_logits = None` in `__init__`, which only sets a default:
nothing clears what `forward()` stores, so every MoE layer keeps its last routing
logits (and their graph) alive between calls."""
import torch
from torch import nn


class TopKRouter(nn.Module):
    def __init__(self, hidden: int, experts: int, k: int = 2):
        super().__init__()
        self.gate = nn.Linear(hidden, experts, bias=False)
        self.k = k
        self.last_logits = None

    def routing_entropy(self) -> float:
        if self.last_logits is None:
            return 0.0
        p = self.last_logits.softmax(-1)
        return float(-(p * p.log()).sum(-1).mean())

    def forward(self, hidden_states: torch.Tensor):
        logits = self.gate(hidden_states)
        self.last_logits = logits
        weights, experts = torch.topk(logits.softmax(-1), self.k, dim=-1)
        return weights, experts
