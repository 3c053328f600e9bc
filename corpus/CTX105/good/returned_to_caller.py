# expect: none
"""A factory returns the span: the caller owns ending it."""
from opentelemetry import trace

tracer = trace.get_tracer("scheduler")


def start_request_span(request_id: str, prompt_len: int):
    span = tracer.start_span("request")
    span.set_attribute("request_id", request_id)
    span.set_attribute("prompt_len", prompt_len)
    return span


class Tracker:
    def __init__(self):
        self.spans = {}

    def on_arrival(self, request_id: str, prompt_len: int) -> None:
        self.spans[request_id] = start_request_span(request_id, prompt_len)

    def on_finish(self, request_id: str) -> None:
        self.spans.pop(request_id).end()
