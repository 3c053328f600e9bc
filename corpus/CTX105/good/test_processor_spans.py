# expect: none
"""Kind: the project's own test module (pytest collects `test_*.py`) starts spans to feed
a span processor and never ends some of them: the span lives for one test. The same code
in a library module is CTX105 (see bad/discarded_span.py)."""
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider


class RecordingProcessor:
    def __init__(self):
        self.started = []

    def on_start(self, span, parent_context=None):
        self.started.append(span.name)

    def on_end(self, span):
        pass


def test_processor_sees_unended_span():
    provider = TracerProvider()
    proc = RecordingProcessor()
    provider.add_span_processor(proc)
    span = provider.get_tracer(__name__).start_span("llm.call")
    assert proc.started == ["llm.call"]
    assert span.is_recording()
