# expect: none
# The span is handed to `use_span` by keyword with `end_on_exit=True`: leaving the
# `with` block ends it, on success and on an exception alike.
from contextlib import contextmanager

from opentelemetry import trace

tracer = trace.get_tracer(__name__)


@contextmanager
def client_span(method: str, attributes: dict):
    span = tracer.start_span(method, kind=trace.SpanKind.CLIENT, attributes=attributes)
    with trace.use_span(span=span, end_on_exit=True, record_exception=False) as current:
        yield current


def traced_call(fn, name: str):
    span = tracer.start_span(name)
    with trace.use_span(end_on_exit=True, span=span):
        return fn()
