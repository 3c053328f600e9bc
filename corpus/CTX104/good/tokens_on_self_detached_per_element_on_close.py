# expect: none
"""Two shapes of a token list released one element at a time: a session keeps its
tokens on `self` and `close()` hands each to a detaching method; a batch record owns
its list and its own `release()` detaches it, run by the worker's close path."""
from opentelemetry import context as otel_context
from opentelemetry import trace


class TracedSession:
    def __init__(self, span):
        self._span = span
        self._tokens = []

    def activate(self):
        self._tokens.append(otel_context.attach(trace.set_span_in_context(self._span)))

    def _drop(self, token):
        otel_context.detach(token)

    def close(self):
        while self._tokens:
            self._drop(self._tokens.pop())
        self._span.end()


class Batch:
    def __init__(self, span):
        self.span = span
        self.tokens = []

    def release(self):
        for tok in reversed(self.tokens):
            otel_context.detach(tok)
        self.tokens = []
        self.span.end()


class BatchWorker:
    def __init__(self, tracer):
        self._tracer = tracer
        self._batch = None

    def begin(self, name):
        span = self._tracer.start_span(name)
        self._batch = Batch(span)
        self._batch.tokens.append(otel_context.attach(trace.set_span_in_context(span)))

    def close(self):
        if self._batch is not None:
            self._batch.release()
            self._batch = None
