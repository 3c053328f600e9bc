# expect: 11 CTX104
"""A stream wrapper detaches only at the end of the stream or on an error: a consumer that stops early leaves the context attached."""
from opentelemetry import context as context_api
from opentelemetry.trace import set_span_in_context


class Wrapper:
    def __init__(self, stream, span):
        self._stream = stream
        self._span = span
        self._token = context_api.attach(set_span_in_context(span, context_api.get_current()))

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._stream)
        except StopIteration:
            self._finalize()
            raise

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            event = await self._stream.__anext__()
            return event
        except StopAsyncIteration:
            self._finalize()
            raise
        except Exception:
            self._span.end()
            context_api.detach(self._token)
            raise

    def _finalize(self):
        self._span.end()
        context_api.detach(self._token)
