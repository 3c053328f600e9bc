# expect: none
"""Streaming session: the span stored on self is ended by close()."""
from opentelemetry import trace


class StreamSession:
    def __init__(self, tracer: trace.Tracer, stream_id: str):
        self._tracer = tracer
        self.stream_id = stream_id
        self._span = None

    def open(self) -> None:
        self._span = self._tracer.start_span("stream", attributes={"id": self.stream_id})

    def close(self) -> None:
        span, self._span = self._span, None
        if span is not None:
            span.end()
