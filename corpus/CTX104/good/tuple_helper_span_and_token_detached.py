# expect: none
"""The same helper returns the span and the token; the middleware ends the span and
detaches the token in `finally`."""
from opentelemetry import context, trace

tracer = trace.get_tracer("gateway.asgi")


def open_request_span(scope):
    span = tracer.start_span(f"{scope['method']} {scope['path']}")
    token = context.attach(trace.set_span_in_context(span))
    return span, token


class TraceMiddleware:
    def __init__(self, app):
        self.app = app

    def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        span, token = open_request_span(scope)
        try:
            return self.app(scope, receive, send)
        finally:
            span.end()
            context.detach(token)
