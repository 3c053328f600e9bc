# expect: none
"""dask's EventExtension: every public method normalises the name first, and the private
remover is only ever handed that normalised name, so both sides use one key."""
from collections import defaultdict


class EventRegistry:
    def __init__(self, make_event):
        self._events = defaultdict(make_event)
        self._waiters = defaultdict(int)

    def _normalize(self, name):
        if isinstance(name, list):
            name = tuple(name)
        return name

    async def wait(self, name=None):
        name = self._normalize(name)
        event = self._events[name]
        self._waiters[name] += 1
        try:
            await event.wait()
        finally:
            self._waiters[name] -= 1
            if not self._waiters[name] and not event.is_set():
                self._delete(name)

    def set(self, name=None):
        name = self._normalize(name)
        self._events[name].set()

    def clear(self, name=None):
        name = self._normalize(name)
        if name in self._events:
            self._delete(name)

    def _delete(self, name):
        self._waiters.pop(name, None)
        self._events.pop(name, None)
