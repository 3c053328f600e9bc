# expect: none
"""The process span stays current until the next poll, whose helper (another module)
detaches the token kept on this consumer: the same object is handed to it."""
from opentelemetry import context, trace

from .helpers import end_consume


class Consumer:
    def __init__(self, inner):
        self.inner = inner
        self.token = None
        self.span = None

    def poll(self, tracer):
        if self.token:
            end_consume(self)
        rec = self.inner.poll()
        self.span = tracer.start_span("process")
        self.token = context.attach(trace.set_span_in_context(self.span))
        return rec
