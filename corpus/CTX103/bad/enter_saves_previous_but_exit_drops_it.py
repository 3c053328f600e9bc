# expect: 23 CTX103
"""Next to sentry-sdk's `Hub` (see good/exit_puts_back_hub_saved_through_property.py): the
previous hub is saved on entry, but `__exit__` only pops the list and never sets the var
back, so the hub stays bound after the `with` block on a pooled thread."""
from contextvars import ContextVar

_local = ContextVar("current_hub")


class HubMeta(type):
    @property
    def current(cls) -> "Hub":
        return _local.get(None)


class Hub(metaclass=HubMeta):
    def __init__(self) -> None:
        self._old_hubs: list = []
        self.previous = None

    def __enter__(self) -> "Hub":
        self._old_hubs.append(Hub.current)
        _local.set(self)
        return self

    def __exit__(self, *exc) -> None:
        self.previous = self._old_hubs.pop()
