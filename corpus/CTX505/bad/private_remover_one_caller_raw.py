# expect: 38 CTX505
# expect: 39 CTX505
"""Near miss of dask's EventExtension: `clear()` hands the remover the raw name, so a
list-named event (`["job", 3]`, stored under the tuple) is never removed."""
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
        if self._normalize(name) in self._events:
            self._delete(name)

    def _delete(self, name):
        self._waiters.pop(name, None)
        self._events.pop(name, None)
