# expect: 22 CTX104
# expect: 21 CTX105
"""The helper detaches the token of the object it is given, and this consumer hands it
another object: its own token is never detached."""
from opentelemetry import context, trace

from .helpers import end_consume


class Consumer:
    def __init__(self, inner):
        self.inner = inner
        self.token = None
        self.other = None
        self.span = None

    def poll(self, tracer):
        if self.other:
            end_consume(self.other)
        rec = self.inner.poll()
        self.span = tracer.start_span("p")
        self.token = context.attach(trace.set_span_in_context(self.span))
        return rec
