# expect: 14 CTX105
"""Streaming session keeps a span per stream but no method ever ends it."""
from opentelemetry import trace


class StreamSession:
    def __init__(self, tracer: trace.Tracer, stream_id: str):
        self._tracer = tracer
        self.stream_id = stream_id
        self._span = None
        self.chunks = 0

    def open(self) -> None:
        self._span = self._tracer.start_span("stream", attributes={"id": self.stream_id})

    def on_chunk(self, text: str) -> None:
        self.chunks += 1
        if self._span is not None:
            self._span.add_event("chunk", {"len": len(text)})

    def close(self) -> None:
        self._span = None
