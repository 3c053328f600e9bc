# expect: none
"""The previous handle, read back with getattr, is removed before the new one is stored."""
from torch import nn


def decompress_then_run(model: nn.Module, x, decompress):
    hook = getattr(model, "decompress_hook", None)
    if hook is not None:
        hook.remove()
    model.decompress_hook = model.register_forward_pre_hook(decompress)
    return model(x)
