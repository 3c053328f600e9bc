# expect: 18 CTX103
"""Next to good/set_and_clear_methods_pair.py: another function of the module also clears
the var, but this @contextmanager owns its own scope - it sets, yields and clears after
the `yield` without `finally`, so an exception in the with-body leaves the tracer bound."""
from contextlib import contextmanager
from contextvars import ContextVar

_tracer: ContextVar = ContextVar("tracer", default=None)


class Tracer:
    def __init__(self, name: str):
        self.name = name


@contextmanager
def tracing(name: str = "default"):
    _tracer.set(Tracer(name))
    yield None
    _tracer.set(None)


def disable_tracing() -> None:
    _tracer.set(None)
