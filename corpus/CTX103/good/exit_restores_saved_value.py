# expect: none
"""A scope saves the previous value on entry and puts it back in __exit__: restoring the
saved value is the cleanup, also when __enter__ delegates to a helper."""
from contextvars import ContextVar

current_client: ContextVar[object] = ContextVar("current_client", default=None)


class ClientScope:
    def __init__(self, client):
        self.client = client
        self._saved = []

    def __enter__(self):
        self._push()
        return self.client

    def _push(self):
        self._saved.append(current_client.get())
        current_client.set(self.client)

    def __exit__(self, *exc):
        previous = self._saved.pop()
        current_client.set(previous)
