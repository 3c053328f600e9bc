# expect: 15 CTX403
"""Near miss of the once-per-module flag: the early return tests a flag nothing ever
sets, so every call registers the hooks again on the module it runs."""
from torch import nn

PREFETCHER_ATTR = "_prefetcher"


def run_with_prefetch(module: nn.Module, x, pf):
    if getattr(module, PREFETCHER_ATTR, None) is not None:
        return module(x)
    # the flag would be set here, but the author forgot it
    if pf is None:
        raise ValueError("no prefetcher")
    module.register_forward_pre_hook(lambda *_a, **_k: pf.begin())
    return module(x)
