# expect: 27 CTX105
"""The span is handed to a request record of this module that keeps it but never ends it."""
from opentelemetry import trace
from opentelemetry.trace import SpanKind


class RequestRecord:
    def __init__(self, request_id: str, span):
        self.request_id = request_id
        self.span = span
        self.tokens = 0

    def add_tokens(self, n: int) -> None:
        self.tokens += n
        self.span.set_attribute("tokens", self.tokens)

    def finish(self) -> int:
        return self.tokens


class Scheduler:
    def __init__(self, otel_tracer):
        self.records = {}
        self.t = otel_tracer

    def admit(self, request_id: str) -> None:
        span = self.t.start_span("request", kind=SpanKind.SERVER)
        self.records[request_id] = RequestRecord(request_id, span)

    def complete(self, request_id: str) -> int:
        return self.records.pop(request_id).finish()
