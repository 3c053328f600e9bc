# expect: 14 CTX104
# Near miss: the close path takes the token out with a walrus and forgets it, so
# the attached context is never restored.
from opentelemetry import context as context_api
from opentelemetry.trace import set_span_in_context


class WrappedSpan:
    def __init__(self, otel_span) -> None:
        self._otel_span = otel_span
        self._context_token = None

    def attach_context(self) -> None:
        self._context_token = context_api.attach(set_span_in_context(self._otel_span))

    def detach_context(self) -> None:
        if (token := self._context_token) is None:
            return
        self._context_token = None
        self._otel_span.end()
        print("closed", token)
