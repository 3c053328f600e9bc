# expect: 9 CTX105
"""Retry loop that starts a new span per attempt and only ends the last one."""
from opentelemetry import trace

tracer = trace.get_tracer("client")


def call_with_retries(send, payload, attempts: int = 3):
    span = tracer.start_span("attempt-0")
    for i in range(1, attempts):
        try:
            result = send(payload)
            break
        except ConnectionError:
            span = tracer.start_span(f"attempt-{i}")
    else:
        result = None
    span.end()
    return result
