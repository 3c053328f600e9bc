# expect: 19 CTX103  expect: 24 CTX103
"""Next to good/counter_scoped_by_engine/: runner.py scopes `_job_id` with a reset in
`finally`, but `consume` binds a *new* value (the id of the message it pulled), not an
update of the current one - nothing says it runs inside that scope, and on a worker that
loops over messages the id stays bound for the next one. `_attempt` is bumped from its
current value, but runner.py resets it only on the normal path: no scope to rely on."""
from contextvars import ContextVar

_job_id: ContextVar[str | None] = ContextVar("job_id", default=None)
_attempt: ContextVar[int] = ContextVar("attempt", default=0)


def current_job_id():
    return _job_id.get()


def consume(queue, handle):
    message = queue.get()
    _job_id.set(message.job_id)
    handle(message)


def retry(job):
    _attempt.set(_attempt.get() + 1)
    return job.execute()
