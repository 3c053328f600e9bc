# expect: 19 CTX104
"""A tracing scope that detaches its context in `__exit__` only when the with-body
succeeded: a failed request leaves the request's context attached to the worker."""
from opentelemetry import context as otel_context
from opentelemetry import trace

tracer = trace.get_tracer(__name__)


class request_scope:
    def __init__(self, name: str, carrier: dict):
        self.name = name
        self.carrier = carrier
        self._token = None
        self._span = None

    def __enter__(self):
        self._span = tracer.start_span(self.name)
        self._token = otel_context.attach(trace.set_span_in_context(self._span))
        return self._span

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self._span.record_exception(exc)
            self._span.end()
            return False
        otel_context.detach(self._token)
        self._span.end()
        return False
