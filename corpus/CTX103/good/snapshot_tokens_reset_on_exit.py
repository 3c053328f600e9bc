# expect: none
"""Applies captured (var, value) pairs on entry and resets every token on exit."""
import contextvars

tenant = contextvars.ContextVar("tenant", default=None)
session = contextvars.ContextVar("session", default=None)


class Carrier:
    def __init__(self):
        self._pairs = [(tenant, tenant.get()), (session, session.get())]
        self._tokens = []

    def __enter__(self):
        for var, value in self._pairs:
            self._tokens.append((var, var.set(value)))
        return self

    def __exit__(self, *exc):
        while self._tokens:
            var, token = self._tokens.pop()
            var.reset(token)
