# expect: none
"""Callback handler that keeps one token per run and detaches it on every terminal hook."""
from opentelemetry import context, trace

tracer = trace.get_tracer("llm.callbacks")


class SpanCallbackHandler:
    def __init__(self):
        self._runs = {}

    def on_llm_start(self, run_id: str) -> None:
        span = tracer.start_span("llm")
        token = context.attach(trace.set_span_in_context(span))
        self._runs[run_id] = (span, token)

    def _finish(self, run_id: str) -> None:
        span, token = self._runs.pop(run_id)
        try:
            span.end()
        finally:
            context.detach(token)

    def on_llm_end(self, run_id: str) -> None:
        self._finish(run_id)

    def on_llm_error(self, run_id: str, error: BaseException) -> None:
        self._finish(run_id)
