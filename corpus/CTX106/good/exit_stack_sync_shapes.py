# expect: none
"""Synchronous exit stacks around the `yield`: hooks, a connection and a patched
environment are undone by the stack when the body raises; the statements after the
`yield` repeat that on the success path (after disarming the stack where it matters)."""
import os
import sqlite3
from contextlib import ExitStack, closing, contextmanager


@contextmanager
def traced(model, record):
    with ExitStack() as stack:
        handles = [m.register_forward_hook(record) for m in model.modules()]
        for h in handles:
            stack.callback(h.remove)
        yield handles
        stack.pop_all()
        for h in handles:
            h.remove()


@contextmanager
def transaction(path: str):
    with ExitStack() as stack:
        conn = stack.enter_context(closing(sqlite3.connect(path)))
        yield conn
        conn.commit()
        conn.close()


def _restore_env(saved: dict) -> None:
    os.environ.clear()
    os.environ.update(saved)


@contextmanager
def patched_env(**values):
    saved = dict(os.environ)
    stack = ExitStack()
    stack.callback(_restore_env, saved)
    with stack:
        os.environ.update(values)
        yield
        stack.pop_all()
        _restore_env(saved)
