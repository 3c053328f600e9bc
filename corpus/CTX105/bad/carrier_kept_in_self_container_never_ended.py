# expect: 26 CTX105
"""Next to litellm's OTel logger (see good/carrier_kept_in_self_container_ended_later.py):
the span goes into a plain record kept in a dict of `self`, but no method of the logger
ever ends the records' spans - it only drops the records."""
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

    def on_success(self, call_id: str) -> None:
        self._open_llm_calls.pop(call_id, None)

    def pre_call(self, call_id: str, start_time_ns: int) -> None:
        span = tracer.start_span("llm_call", start_time=start_time_ns)
        self._open_llm_calls[call_id] = _LLMCallSpan(span=span, start_time_ns=start_time_ns)
