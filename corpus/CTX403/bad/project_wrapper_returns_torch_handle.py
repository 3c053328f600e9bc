# expect: 24 CTX403 dropped
# expect: 37 CTX403 dropped
# expect: 52 CTX403 dropped
"""Project-defined `register_*_hook` methods that hand back torch's RemovableHandle
(directly, through `super()`, or on one path): dropping their result per forward
still piles hooks up."""
import torch.nn as nn


def _clip(module, args, output):
    return output.clamp(-10, 10)


class ClippedBlock(nn.Module):
    def __init__(self, inner: nn.Module):
        super().__init__()
        self.inner = inner

    def register_forward_hook(self, hook, *, prepend=False):
        # nn.Module's own: returns a RemovableHandle
        return super().register_forward_hook(hook, prepend=prepend)

    def forward(self, x):
        self.register_forward_hook(_clip)
        return self.inner(x)


class ClipHelper(nn.Module):
    def __init__(self, inner: nn.Module):
        super().__init__()
        self.inner = inner

    def register_clip_hook(self, module: nn.Module):
        return module.register_forward_hook(_clip)

    def forward(self, x):
        self.register_clip_hook(self.inner)
        return self.inner(x)


class MaybeClip(nn.Module):
    def __init__(self, inner: nn.Module):
        super().__init__()
        self.inner = inner

    def register_maybe_hook(self, module: nn.Module, enabled: bool):
        if not enabled:
            return None
        return module.register_forward_hook(_clip)

    def forward(self, x):
        self.register_maybe_hook(self.inner, enabled=self.training)
        return self.inner(x)
