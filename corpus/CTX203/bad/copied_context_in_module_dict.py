# expect: 9 CTX203
"""Callback runner that keeps the caller's Context per run for later callbacks."""
import contextvars

_run_contexts: dict[str, contextvars.Context] = {}


def start_run(run_id: str) -> None:
    _run_contexts[run_id] = contextvars.copy_context()


def emit(run_id: str, callback, *args) -> None:
    ctx = _run_contexts.get(run_id)
    if ctx is None:
        callback(*args)
    else:
        ctx.run(callback, *args)


def end_run(run_id: str) -> None:
    _run_contexts.pop(run_id, None)
