# expect: none
"""The token kept on the consumer is detached by a static helper of another class of
this module that the next poll hands the consumer to."""
from opentelemetry import context, trace


class Spans:
    @staticmethod
    def end_current(holder) -> None:
        if holder.token is not None:
            context.detach(holder.token)
        holder.token = None


class Consumer:
    def __init__(self, inner, tracer):
        self.inner = inner
        self.tracer = tracer
        self.token = None

    def poll(self):
        Spans.end_current(self)
        rec = self.inner.poll()
        self.token = context.attach(trace.set_span_in_context(trace.INVALID_SPAN))
        return rec
