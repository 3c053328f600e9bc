# expect: none
"""Reduced from litellm `litellm/integrations/otel/logger.py` (`_LLMCallSpan`,
`_store_open_call`, `_close_llm_call`, `_finish_carrier`): the span goes into a plain
record, the record into a dict of `self`, and another method pops the record and ends its
span. The logger owns the span; it is ended, just later."""
from opentelemetry import trace

tracer = trace.get_tracer(__name__)


class _LLMCallSpan:
    __slots__ = ("span", "start_time_ns")

    def __init__(self, span, start_time_ns):
        self.span = span
        self.start_time_ns = start_time_ns


class OtelLogger:
    def __init__(self) -> None:
        self._open_llm_calls: dict = {}

    def pre_call(self, call_id: str, start_time_ns: int) -> None:
        span = tracer.start_span("llm_call", start_time=start_time_ns)
        self._store_open_call(call_id, _LLMCallSpan(span=span, start_time_ns=start_time_ns))

    def _store_open_call(self, call_id: str, carrier: _LLMCallSpan) -> None:
        self._open_llm_calls[call_id] = carrier

    def on_success(self, call_id: str) -> None:
        carrier = self._open_llm_calls.pop(call_id, None)
        self._finish_carrier(carrier)

    def _finish_carrier(self, carrier) -> None:
        if carrier is not None and carrier.span is not None:
            carrier.span.end()
