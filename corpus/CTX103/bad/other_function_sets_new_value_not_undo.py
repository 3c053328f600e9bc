# expect: 14 CTX103  expect: 18 CTX103
"""Next to good/set_and_clear_methods_pair.py: two methods set the var, but neither
clears or restores it - the second binds another new value, which undoes nothing."""
from contextvars import ContextVar

_mode: ContextVar[str | None] = ContextVar("mode", default=None)


class Session:
    def __init__(self, backend):
        self.backend = backend

    def start(self, req) -> None:
        _mode.set(req.mode)
        self.backend.open(req)

    def switch(self, req) -> None:
        _mode.set(req.next_mode)
        self.backend.reopen(req)
