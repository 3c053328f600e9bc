# expect: none
"""Model router: the span is a context manager, ended on every path."""
from opentelemetry import trace

tracer = trace.get_tracer("router")


class Router:
    def __init__(self, backends: dict):
        self.backends = backends

    def route(self, req: dict):
        with tracer.start_as_current_span("route") as span:
            backend = self.backends.get(req.get("model"))
            if backend is None:
                return None
            span.set_attribute("backend", backend.name)
            return backend.send(req)
