# expect: 13 CTX105
"""Model router: the span is ended only on the success path."""
from opentelemetry import trace

tracer = trace.get_tracer("router")


class Router:
    def __init__(self, backends: dict):
        self.backends = backends

    def route(self, req: dict):
        span = tracer.start_span("route")
        backend = self.backends.get(req.get("model"))
        if backend is None:
            return None
        span.set_attribute("backend", backend.name)
        out = backend.send(req)
        span.end()
        return out
