# expect: 23 CTX104
"""A pure-ASGI middleware opens the request's span and makes it current through one
helper that returns both; the middleware ends the span in `finally` but never detaches
the token it unpacked, so the server's task keeps the span current after the response."""
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
