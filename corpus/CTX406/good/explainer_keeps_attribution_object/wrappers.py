# expect: none
import torch


class CaptumModel(torch.nn.Module):
    """Wraps the caller's model so the attribution library can call it."""

    def __init__(self, model: torch.nn.Module, mask_type: str, index=None):
        super().__init__()
        self.model = model
        self.mask_type = mask_type
        self.index = index

    def forward(self, mask, *args):
        out = self.model(mask, *args)
        return out if self.index is None else out[self.index]
