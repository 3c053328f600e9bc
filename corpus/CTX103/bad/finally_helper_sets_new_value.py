# expect: 16 CTX103
"""The `finally` calls a module helper that does touch the same ContextVar, but it
binds a fresh value (the finished job's record), not the var's previous value or a
part of it: the pushed stack is replaced, not undone, and the record stays bound."""
from contextvars import ContextVar

_job_stack: ContextVar[tuple] = ContextVar("job_stack", default=())


def _mark_done(job_id, result):
    _job_stack.set((("done", job_id, result),))


def run_job(job_id, work):
    result = None
    _job_stack.set((*_job_stack.get(), job_id))
    try:
        result = work()
        return result
    finally:
        _mark_done(job_id, result)
