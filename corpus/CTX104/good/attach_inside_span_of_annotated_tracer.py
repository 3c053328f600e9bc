# expect: none
# The middleware is handed its tracer (annotated with the OTel API's Tracer, imported
# only for type checking) and attaches the consumer context inside the tracer's
# current-span scope, whose exit restores the context on every path.
from typing import TYPE_CHECKING

from opentelemetry import context, trace

if TYPE_CHECKING:
    from opentelemetry.trace import Tracer


class TelemetryMiddleware:
    def __init__(self, msg, *, tracer: "Tracer") -> None:
        self.msg = msg
        self._tracer = tracer

    async def consume_scope(self, call_next, msg):
        with self._tracer.start_as_current_span("process") as span:
            token = context.attach(trace.set_span_in_context(span))
            result = await call_next(msg)
            context.detach(token)
        return result
