# expect: none
"""Reduced from sentry-sdk `sentry_sdk/hub.py` (`Hub.__enter__`/`__exit__`): the previous
hub is read through a metaclass property (which calls `_local.get()`), pushed on a
per-instance list in `__enter__`, and popped and set back in `__exit__`. Putting back what
`__enter__` saved is the cleanup of a re-entrant context manager."""
from contextvars import ContextVar

_local = ContextVar("current_hub")


class HubMeta(type):
    @property
    def current(cls) -> "Hub":
        rv = _local.get(None)
        if rv is None:
            rv = Hub()
            _local.set(rv)
        return rv


class Hub(metaclass=HubMeta):
    def __init__(self) -> None:
        self._old_hubs: list = []

    def __enter__(self) -> "Hub":
        self._old_hubs.append(Hub.current)
        _local.set(self)
        return self

    def __exit__(self, *exc) -> None:
        old = self._old_hubs.pop()
        _local.set(old)
        self.closed = True
