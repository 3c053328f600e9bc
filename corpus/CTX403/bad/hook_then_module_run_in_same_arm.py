# expect: 14 CTX403
# Near miss of the exclusive-arms exemption: in the same arm as the registration the
# function runs the hooked module on the caller's input, so it runs per call and
# each call adds another hook.
from torch import nn


class Probe:
    def __init__(self) -> None:
        self.seen = []

    def probe(self, module: nn.Module, x, mode: str):
        if mode == "trace":
            module.register_forward_hook(lambda _m, _i, out: self.seen.append(out.shape))
            return module(x)
        return None
