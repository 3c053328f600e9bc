# expect: 19 CTX104
# Near miss of the annotated-tracer scope: the "tracer" is the app's own object whose
# `start_as_current_span` is not OpenTelemetry's, so nothing shows that its exit
# restores the OTel context; the attach is detached on the normal path only.
from opentelemetry import context


class AppTracer:
    def start_as_current_span(self, name):
        return open("/dev/null")


class Middleware:
    def __init__(self, tracer: AppTracer) -> None:
        self._tracer = tracer

    async def consume(self, call_next, msg, ctx):
        with self._tracer.start_as_current_span("process"):
            token = context.attach(ctx)
            result = await call_next(msg)
            context.detach(token)
        return result
