# expect: none
"""A re-entrant guard pushes itself onto a tuple held in a ContextVar when the
with-block starts. `__exit__` calls a helper method in `finally`; the helper rebuilds
the tuple without this object (a value built from the var's own current value) and
sets it back. The push is undone on every exit path."""
from contextvars import ContextVar

_active_guards: ContextVar[tuple] = ContextVar("active_guards", default=())


class QuotaGuard:
    def __init__(self, limit):
        self.limit = limit
        self.used = 0

    def _drop_self(self):
        remaining = [g for g in _active_guards.get() if g is not self]
        _active_guards.set(tuple(remaining))

    def __enter__(self):
        _active_guards.set(_active_guards.get() + (self,))
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            self.used = 0
        finally:
            self._drop_self()
        return False
