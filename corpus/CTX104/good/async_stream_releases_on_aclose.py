# expect: none
"""An async iterator wrapper detaches through one guarded method that it calls at the end
of the stream, on an error, and from `aclose()`: exhaustion and early exit both detach."""
from opentelemetry import context as otel_context
from opentelemetry import trace


class TracedEvents:
    def __init__(self, events, span):
        self._events = events
        self._span = span
        self._token = otel_context.attach(trace.set_span_in_context(span))

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self._events.__anext__()
        except StopAsyncIteration:
            self._release()
            raise
        except Exception:
            self._release()
            raise

    async def aclose(self):
        try:
            await self._events.aclose()
        finally:
            self._release()

    def _release(self):
        token, self._token = self._token, None
        if token is not None:
            self._span.end()
            otel_context.detach(token)
