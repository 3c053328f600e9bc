# expect: none
"""A callback handler keeps one record per run; each start attaches the run's span and
appends the token to the record's list. Ending the run walks that list and detaches
every token through a module helper."""
import contextlib
from dataclasses import dataclass, field

from opentelemetry import context as otel_context
from opentelemetry import trace


def _release(token):
    # the end callback may run in another task, where detach would complain
    with contextlib.suppress(Exception):
        otel_context.detach(token)


@dataclass
class _Step:
    span: object
    tokens: list = field(default_factory=list)


class StepTracer:
    def __init__(self, tracer):
        self._tracer = tracer
        self._steps = {}

    def on_step_start(self, step_id, name, quiet=False):
        span = self._tracer.start_span(name)
        step = _Step(span=span)
        try:
            if quiet:
                step.tokens.append(otel_context.attach(otel_context.set_value("quiet", True)))
            else:
                step.tokens.append(otel_context.attach(trace.set_span_in_context(span)))
        except Exception:
            pass
        self._steps[step_id] = step

    def on_step_end(self, step_id):
        step = self._steps.pop(step_id, None)
        if step is not None:
            self._finish(step)

    @staticmethod
    def _finish(step):
        for token in reversed(step.tokens):
            _release(token)
        step.tokens.clear()
        step.span.end()
