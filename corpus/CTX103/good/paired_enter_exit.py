# expect: none
"""Request scope as a context manager: the token lives on self between __enter__ and __exit__."""
import contextvars


class AdapterScope:
    current: contextvars.ContextVar[str | None] = contextvars.ContextVar("adapter", default=None)

    def __init__(self, adapter_id: str):
        self.adapter_id = adapter_id
        self._token: contextvars.Token | None = None

    def __enter__(self):
        self._token = self.current.set(self.adapter_id)
        return self

    def __exit__(self, exc_type, exc, tb):
        token, self._token = self._token, None
        if token is not None:
            self.current.reset(token)
        return False
