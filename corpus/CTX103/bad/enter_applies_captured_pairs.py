# expect: 22 CTX103
"""A carrier re-applies the parent's values in a pooled worker thread through a helper
that __enter__ calls; __exit__ only forgets the pairs, so the thread keeps them."""
import contextvars

request_id = contextvars.ContextVar("request_id", default=None)
tenant = contextvars.ContextVar("tenant", default=None)


class Propagated:
    def __init__(self):
        self._captured = []
        for var in (request_id, tenant):
            self._captured.append((var, var.get()))

    def __enter__(self):
        self._restore_all()
        return self

    def _restore_all(self):
        for var, value in self._captured:
            var.set(value)

    def __exit__(self, *exc):
        self._captured.clear()


def run_captured(scope: Propagated, fn):
    """Called on a pooled worker thread with a carrier built on the request thread."""
    with scope:
        return fn()
