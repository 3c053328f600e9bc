# expect: 14 CTX105
# The span started on the `with` path is ended only by `end()`; `__exit__` resets the
# context but never calls it, so every `with Step(...)` block leaves its span open.
from opentelemetry import trace

tracer = trace.get_tracer(__name__)


class Step:
    def __init__(self, name):
        self.name = name

    def _start(self):
        self._span = tracer.start_span(self.name)

    def end(self):
        self._span.end()

    def __enter__(self):
        self._start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.name = None
        return False
