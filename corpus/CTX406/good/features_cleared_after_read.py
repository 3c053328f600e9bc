# expect: none
import torch.nn as nn


class FeatureTap(nn.Module):
    def __init__(self, backbone: nn.Module, block: str):
        super().__init__()
        self.backbone = backbone
        self.features = None
        self._handle = dict(backbone.named_modules())[block].register_forward_hook(self.capture_hook)

    def capture_hook(self, module, inputs, output):
        self.features = output[0] if isinstance(output, tuple) else output

    def forward(self, pixel_values):
        self.backbone(pixel_values)
        features, self.features = self.features, None  # handed out and cleared
        return features
