# expect: 14 CTX406 forward() hands the hidden state (unpacked from the layer output) to a helper that keeps it on self; it is never cleared
import torch
from torch import nn


class EarlyExitHead(nn.Module):
    def __init__(self, hidden: int, vocab: int, threshold: float = 0.9) -> None:
        super().__init__()
        self.proj = nn.Linear(hidden, vocab)
        self.threshold = threshold
        self._last_hidden = None

    def _remember(self, hidden: torch.Tensor) -> None:
        self._last_hidden = hidden

    def last_hidden_norm(self) -> float:
        return float(self._last_hidden.norm()) if self._last_hidden is not None else 0.0

    def forward(self, layer_out: tuple) -> tuple[torch.Tensor, torch.Tensor]:
        h = layer_out[0]
        self._remember(h)
        logits = self.proj(h[:, -1])
        confident = logits.softmax(-1).amax(-1) > self.threshold
        return logits, confident
