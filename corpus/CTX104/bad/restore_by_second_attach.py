# expect: 19 CTX104
# expect: 23 CTX104
"""Streaming callback handler that swaps the current context per LLM run."""
import opentelemetry.context as otel_ctx
from opentelemetry import trace

tracer = trace.get_tracer("llm.callbacks")


class SpanCallbackHandler:
    def __init__(self):
        self._spans = {}
        self._saved = {}

    def on_llm_start(self, run_id: str, prompt: str) -> None:
        span = tracer.start_span("llm")
        self._spans[run_id] = span
        self._saved[run_id] = otel_ctx.get_current()
        otel_ctx.attach(trace.set_span_in_context(span))

    def on_llm_end(self, run_id: str) -> None:
        self._spans.pop(run_id).end()
        otel_ctx.attach(self._saved.pop(run_id))
