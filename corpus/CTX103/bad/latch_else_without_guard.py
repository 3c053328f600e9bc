# expect: 18 CTX103
"""The `else:` sets a flag, but no test of the chain reads it: a latch needs the guard
that returns while the flag is set. Here the flag stays on for whatever runs next in
this Context, and nothing ever reads it back before setting it."""
from contextvars import ContextVar

implicit_mode: ContextVar[bool] = ContextVar("implicit_mode", default=False)


def execute(*, handlers=None, registry=None, fallback=None):
    if handlers is not None:
        subregistry = list(handlers)
    elif registry is not None:
        subregistry = registry
    elif fallback is None:
        return
    else:
        implicit_mode.set(True)
        subregistry = fallback
    for h in subregistry:
        h()
