# expect: 16 CTX103
"""Scopes the job id around a run (reset in `finally`); the attempt counter, a
ContextVar imported from context.py, is reset only on the normal path."""
from .context import _attempt, _job_id


def run_job(job):
    token = _job_id.set(job.id)
    try:
        return job.execute()
    finally:
        _job_id.reset(token)


def run_attempts(job):
    token = _attempt.set(0)
    result = job.execute()
    _attempt.reset(token)
    return result
