# expect: none
# A span wrapper attaches its span's context and, on close, takes the token out
# with a walrus and resets it through the token's own ContextVar (what
# `context.detach()` does, without its error log on a cross-Context reset).
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
        try:
            token.var.reset(token)
        except ValueError:
            pass
        self._otel_span.end()
