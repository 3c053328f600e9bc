# expect: none
"""Installs prefetch hooks on the module it is about to run, guarded by a flag on that
module (an early return once it is set, set right after registering) and on each
parameter (a `continue` in the loop): a second run registers nothing again."""
import torch
from torch import nn

PREFETCHER_ATTR = "_prefetcher"


class Prefetcher:
    def __init__(self, module: nn.Module):
        self.module = module

    def begin(self):
        pass

    def end(self):
        pass


def run_with_prefetch(module: nn.Module, x: torch.Tensor) -> torch.Tensor:
    if getattr(module, PREFETCHER_ATTR, None) is not None:
        return module(x)
    pf = Prefetcher(module)
    module.register_forward_pre_hook(lambda *_a, **_k: pf.begin())
    module.register_forward_hook(lambda *_a, **_k: pf.end(), always_call=True)
    setattr(module, PREFETCHER_ATTR, pf)
    return module(x)


def clip_grads_then_run(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    for p in model.parameters():
        if getattr(p, "_clip_hooked", False):
            continue
        p.register_hook(lambda g: g.clamp(-1, 1))
        p._clip_hooked = True
    return model(x)
