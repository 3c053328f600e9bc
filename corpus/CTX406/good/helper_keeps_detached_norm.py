# expect: none
import torch
from torch import nn


class EarlyExitHead(nn.Module):
    def __init__(self, hidden: int, vocab: int, threshold: float = 0.9) -> None:
        super().__init__()
        self.proj = nn.Linear(hidden, vocab)
        self.threshold = threshold
        self._last_norm = 0.0

    def _remember(self, hidden: torch.Tensor) -> None:
        self._last_norm = float(hidden.detach().norm())  # a Python float: no tensor or graph is kept

    def last_hidden_norm(self) -> float:
        return self._last_norm

    def forward(self, layer_out: tuple) -> tuple[torch.Tensor, torch.Tensor]:
        h = layer_out[0]
        self._remember(h)
        logits = self.proj(h[:, -1])
        confident = logits.softmax(-1).amax(-1) > self.threshold
        return logits, confident
