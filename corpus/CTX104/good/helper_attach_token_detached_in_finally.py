# expect: none
"""A job runner that resumes the publisher's trace through two small helpers (the inner
one attaches and returns the token) and detaches that token in `finally`."""
from opentelemetry import context, propagate, trace

tracer = trace.get_tracer("workers.billing")


def _attach_remote(carrier):
    return context.attach(propagate.extract(carrier))


def _resume_trace(headers):
    return _attach_remote(headers or {})


def run_job(job):
    token = _resume_trace(job.headers)
    try:
        with tracer.start_as_current_span(job.name):
            return job.run()
    finally:
        context.detach(token)
