# expect: none
"""An iterator wrapper keeps the token on `self` and hands itself to a module function
that ends the span and detaches `wrapper._token`. It is called both when the stream is
exhausted and from `close()`, the early-exit path: the wrapper detaches on every way a
consumer can stop."""
from opentelemetry import context as otel_context
from opentelemetry import trace


def _finish(wrapper):
    if wrapper._closed:
        return
    wrapper._closed = True
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
        self._chunks.close()
        _finish(self)
