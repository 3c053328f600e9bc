# expect: 12 CTX104
"""gRPC-style interceptor that makes the caller's context current around the handler."""
from opentelemetry.context import attach, detach
from opentelemetry.propagate import extract


class TracingInterceptor:
    def __init__(self, handler):
        self.handler = handler

    def __call__(self, request, metadata: dict):
        token = attach(extract(metadata))
        response = self.handler(request)  # an exception skips detach
        detach(token)
        return response
