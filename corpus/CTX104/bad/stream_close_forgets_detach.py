# expect: 19 CTX104
"""The wrapper has an early-exit path, `close()`, but it only closes the underlying
stream: the token is detached only when the stream is read to the end, so a consumer
that breaks out and closes the wrapper leaves the span's context attached."""
from opentelemetry import context as otel_context
from opentelemetry import trace


def _finish(wrapper):
    wrapper._span.end()
    otel_context.detach(wrapper._token)


class TracedChunks:
    def __init__(self, chunks, span):
        self._chunks = chunks
        self._span = span
        self._closed = False
        self._token = otel_context.attach(trace.set_span_in_context(span))

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._chunks)
        except StopIteration:
            _finish(self)
            raise

    def close(self):
        self._closed = True
        self._chunks.close()
