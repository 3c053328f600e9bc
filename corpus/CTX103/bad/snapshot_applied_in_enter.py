# expect: 16 CTX103
"""Applies a copy_context() snapshot on a worker thread by iterating it; nothing undoes it."""
import contextvars

trace_id = contextvars.ContextVar("trace_id", default="")


class Snapshot:
    def __init__(self):
        self.ctx = contextvars.copy_context()

    def __enter__(self):
        for var, value in self.ctx.items():
            if var is trace_id and not value:
                continue
            var.set(value)
        return self

    def __exit__(self, exc_type, exc, tb):
        return False
