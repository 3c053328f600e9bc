# expect: 22 CTX103
"""`__exit__` calls a helper method, but the helper only drops this object from a
class-level registry: the ContextVar tuple that `__enter__` extended is never set back,
so the object stays bound after the with-block."""
from contextvars import ContextVar

_open_sessions: ContextVar[tuple] = ContextVar("open_sessions", default=())


class Session:
    registry: set = set()

    def __init__(self, user):
        self.user = user

    def _forget(self):
        self.registry.discard(self)
        print("session closed", self.user)

    def __enter__(self):
        self.registry.add(self)
        _open_sessions.set(_open_sessions.get() + (self,))
        return self

    def __exit__(self, *exc):
        try:
            self.user = None
        finally:
            self._forget()
