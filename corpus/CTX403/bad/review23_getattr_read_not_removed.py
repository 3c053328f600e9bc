# expect: 17 CTX406
# expect: 22 CTX403
"""The old handle is read back only to log it; it is overwritten, never removed."""
import logging
import torch.nn as nn

log = logging.getLogger(__name__)


class Capture(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.out = None

    def _hook(self, module, inputs, output):
        self.out = output

    def forward(self, x):
        if getattr(self, "_handle", None) is not None:
            log.debug("replacing capture hook")
        self._handle = self.model.head.register_forward_hook(self._hook)
        return self.model(x)
