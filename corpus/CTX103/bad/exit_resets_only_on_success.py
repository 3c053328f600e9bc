# expect: 17 CTX103 the token saved in __enter__ is reset in __exit__ only when the with-body succeeded: a failed generation leaves the adapter bound on this context
from contextvars import ContextVar
from typing import Optional

active_lora: ContextVar[Optional[str]] = ContextVar("active_lora", default=None)


class use_adapter:
    """with use_adapter("sql-lora", metrics): engine.generate(...)"""

    def __init__(self, adapter_name: str, metrics) -> None:
        self.adapter_name = adapter_name
        self.metrics = metrics
        self._token = None

    def __enter__(self) -> "use_adapter":
        self._token = active_lora.set(self.adapter_name)
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is not None:
            self.metrics.incr("adapter.errors", tags={"adapter": self.adapter_name})
            return False
        active_lora.reset(self._token)
        self._token = None
        return False


def generate_with(engine, adapter_name: str, prompt: str, metrics) -> str:
    with use_adapter(adapter_name, metrics):
        return engine.generate(prompt, lora=active_lora.get())
