# expect: none
"""Start/end hooks: the token is kept on the plugin and detached when the job ends."""
from opentelemetry import context as otel_context
from opentelemetry import trace

tracer = trace.get_tracer("jobs")


class JobTracingPlugin:
    def __init__(self):
        self._span = None
        self._token = None

    def on_job_start(self, name: str) -> None:
        self._span = tracer.start_span(f"job {name}")
        self._token = otel_context.attach(trace.set_span_in_context(self._span))

    def on_job_end(self) -> None:
        try:
            self._span.end()
        finally:
            if self._token is not None:
                otel_context.detach(self._token)
                self._token = None
