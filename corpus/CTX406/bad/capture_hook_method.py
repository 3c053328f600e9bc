# expect: 15 CTX406
import torch.nn as nn


class FeatureTap(nn.Module):
    """Registers `capture_hook` on a backbone block; keeps the block's output."""

    def __init__(self, backbone: nn.Module, block: str):
        super().__init__()
        self.backbone = backbone
        self._handle = dict(backbone.named_modules())[block].register_forward_hook(self.capture_hook)

    def capture_hook(self, module, inputs, output):
        features = output[0] if isinstance(output, tuple) else output
        self.features = features

    def forward(self, pixel_values):
        return self.backbone(pixel_values)
