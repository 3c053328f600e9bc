# expect: 14 CTX103
"""A request scope object whose __exit__ forgets the token it saved."""
import contextvars


class AdapterScope:
    current: contextvars.ContextVar[str | None] = contextvars.ContextVar("adapter", default=None)

    def __init__(self, adapter_id: str):
        self.adapter_id = adapter_id
        self._token = None

    def __enter__(self):
        self._token = self.current.set(self.adapter_id)
        return self

    def __exit__(self, exc_type, exc, tb):
        self._token = None
        return False


def run_with_adapter(model, adapter_id: str, batch):
    with AdapterScope(adapter_id):
        return model.generate(batch)
