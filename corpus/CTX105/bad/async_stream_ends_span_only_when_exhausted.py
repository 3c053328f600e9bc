# expect: 37 CTX105
"""Async streaming instrumentation: the span is ended only when the stream raises
StopAsyncIteration; a client that stops reading (aclose, cancellation) never ends it."""
from opentelemetry import trace

tracer = trace.get_tracer("llm.stream")


class TracedAsyncStream:
    def __init__(self, inner, span):
        self._inner = inner
        self._span = span
        self._chunks = 0

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            chunk = await self._inner.__anext__()
        except StopAsyncIteration:
            self._span.set_attribute("chunks", self._chunks)
            self._span.end()
            raise
        self._chunks += 1
        return chunk

    async def aclose(self):
        await self._inner.aclose()

    async def __aexit__(self, *exc):
        await self.aclose()


async def stream_chat(client, request):
    inner = await client.chat(request, stream=True)
    span = tracer.start_span("chat.stream")
    return TracedAsyncStream(inner, span)
