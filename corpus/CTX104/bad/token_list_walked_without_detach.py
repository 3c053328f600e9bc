# expect: 36 CTX104 never passed
# expect: 52 CTX104 never passed
# expect: 64 CTX104 never passed
"""Near misses of a token list released by a close path: the end hook walks the
record's list but only describes each token and clears the list; a second handler
appends to a list nobody walks; a third detaches its local list only on the normal
path, after work that can raise."""
import logging
from dataclasses import dataclass, field

from opentelemetry import context as otel_context
from opentelemetry import trace

logger = logging.getLogger(__name__)


def _describe(token):
    return repr(token)


@dataclass
class _Job:
    span: object
    tokens: list = field(default_factory=list)
    started: list = field(default_factory=list)


class JobTracer:
    def __init__(self, tracer):
        self._tracer = tracer
        self._jobs = {}

    def on_job_start(self, job_id, name):
        span = self._tracer.start_span(name)
        job = _Job(span=span)
        job.tokens.append(otel_context.attach(trace.set_span_in_context(span)))
        self._jobs[job_id] = job

    def on_job_end(self, job_id):
        job = self._jobs.pop(job_id)
        for token in job.tokens:
            logger.debug("closing %s", _describe(token))
        job.tokens.clear()
        job.span.end()


class TaskTracer:
    def __init__(self):
        self._open = []

    def on_task_start(self, span):
        self._open.append(otel_context.attach(trace.set_span_in_context(span)))

    def on_task_end(self, span):
        span.end()


def _detach_one(token):
    otel_context.detach(token)


def run_stage(span, stage):
    tokens = []
    tokens.append(otel_context.attach(trace.set_span_in_context(span)))
    stage.run()
    for tok in tokens:
        _detach_one(tok)
