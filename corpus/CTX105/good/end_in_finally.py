# expect: none
"""start_span with end() in finally, and use_span that ends on exit."""
from opentelemetry import trace

tracer = trace.get_tracer("client")


def call(send, payload):
    span = tracer.start_span("call")
    try:
        return send(payload)
    finally:
        span.end()


def call_current(send, payload):
    span = tracer.start_span("call-current")
    with trace.use_span(span, end_on_exit=True):
        return send(payload)
