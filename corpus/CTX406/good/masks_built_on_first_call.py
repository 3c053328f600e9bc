# expect: none
"""speechbrain's FastDropChunk: the bank of drop masks is built on the first call, from
the first batch's length only, under a first-call flag nothing sets again."""
import torch
from torch import nn


class FastDropChunk(nn.Module):
    def __init__(self, n_masks: int = 1000, max_chunk: int = 400):
        super().__init__()
        self.n_masks = n_masks
        self.max_chunk = max_chunk
        self.first = True

    def _initialize_masks(self, waveforms: torch.Tensor) -> torch.Tensor:
        masks = torch.ones([self.n_masks, waveforms.shape[1]], device=waveforms.device)
        starts = torch.randint(0, waveforms.shape[1] - self.max_chunk, (self.n_masks,))
        for i, s in enumerate(starts.tolist()):
            masks[i, s:s + self.max_chunk] = 0.0
        return masks

    def forward(self, waveforms: torch.Tensor) -> torch.Tensor:
        if self.first:
            self.dropped_masks = self._initialize_masks(waveforms)
            self.first = False
        rand = torch.randperm(self.dropped_masks.shape[0])[: waveforms.shape[0]]
        return waveforms * self.dropped_masks[rand]
