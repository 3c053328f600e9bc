# expect: none
"""Streaming wrapper that ends its span once, on exhaustion, close() and with-exit."""
from opentelemetry import trace

tracer = trace.get_tracer("llm.stream")


class TracedStream:
    def __init__(self, inner, span):
        self._inner = inner
        self._span = span
        self._done = False

    def _finish(self):
        if not self._done:
            self._done = True
            self._span.end()

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._inner)
        except StopIteration:
            self._finish()
            raise

    def close(self):
        try:
            self._inner.close()
        finally:
            self._finish()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def stream(client, request):
    span = tracer.start_span("stream")
    return TracedStream(client.stream(request), span)
