# expect: none
"""A job runner pushes the job id onto a ContextVar stack and runs the job; the
`finally` calls a module function that takes the id back off the var's current
value and sets the shortened stack. The helper is the undo, on every path."""
from contextvars import ContextVar

_job_stack: ContextVar[tuple] = ContextVar("job_stack", default=())


def _forget_job(job_id):
    current = list(_job_stack.get())
    if job_id in current:
        current.remove(job_id)
    _job_stack.set(tuple(current))


def run_job(job_id, work):
    _job_stack.set((*_job_stack.get(), job_id))
    try:
        return work()
    finally:
        _forget_job(job_id)
