# expect: 17 CTX403
"""`_apply` runs the encoder it hooks, once per item of the loop in `run_all`, and
overwrites the only handle each time: all earlier hooks stay registered."""
import functools


def _shift(module, args, *, delta):
    return tuple(a + delta for a in args)


class Steerer:
    def __init__(self, encoder):
        self.encoder = encoder
        self._h = None

    def _apply(self, x, delta):
        self._h = self.encoder.register_forward_pre_hook(functools.partial(_shift, delta=delta))
        return self.encoder(x)

    def run_all(self, xs, deltas):
        return [self._apply(x, d) for x, d in zip(xs, deltas)]
