# expect: 14 CTX103
"""A function whose name reads like a setter still runs the request after binding the
adapter, on a reused worker thread, and never unbinds it."""
from contextvars import ContextVar

active_adapter: ContextVar[str | None] = ContextVar("active_adapter", default=None)


class Worker:
    def __init__(self, model):
        self.model = model

    def use_adapter(self, req):
        active_adapter.set(req.adapter_id)
        return self.model.generate(req.prompt)
