# expect: none
"""A setter helper (the caller owns the scope) and in-scope updates of a budget."""
from contextlib import contextmanager
from contextvars import ContextVar

_budget: ContextVar[int | None] = ContextVar("token_budget", default=None)


@contextmanager
def token_budget(limit: int):
    token = _budget.set(limit)
    try:
        yield
    finally:
        _budget.reset(token)


def charge(n: int) -> bool:
    left = _budget.get()
    if left is None:
        return True
    if n > left:
        return False
    _budget.set(left - n)  # inside token_budget(): undone by its reset
    return True
