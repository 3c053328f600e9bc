# expect: 24 CTX104
"""Celery worker signals that continue the publisher's trace: `task_prerun` resumes it
through two small helpers, the inner one attaches and returns the token, and the
handler drops it; `task_postrun` only logs, so the pool process keeps the last task's
context attached for whatever it runs next."""
import logging

from celery.signals import task_postrun, task_prerun
from opentelemetry import context, propagate

log = logging.getLogger("workers.billing")


def _attach_remote(carrier):
    return context.attach(propagate.extract(carrier))


def _resume_trace(headers):
    return _attach_remote(headers or {})


@task_prerun.connect
def on_prerun(task_id=None, task=None, **kw):
    _resume_trace(getattr(task.request, "headers", None))
    log.info("start %s", task_id)


@task_postrun.connect
def on_postrun(task_id=None, state=None, **kw):
    log.info("done %s: %s", task_id, state)
