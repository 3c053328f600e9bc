# expect: none
# A consumer middleware attaches the message's context inside the span scope and
# detaches it on the normal path only. On an error the `with` around it ends the span
# scope, and its detach resets the OTel ContextVar to the value from before the span,
# which also drops this attach: nothing stays attached past the scope.
from opentelemetry import context, trace

tracer = trace.get_tracer(__name__)


class ConsumeMiddleware:
    def __init__(self, handler) -> None:
        self.handler = handler

    async def consume(self, msg, parent_ctx):
        with tracer.start_as_current_span("process", context=parent_ctx) as span:
            span.set_attribute("messaging.operation", "process")
            new_context = trace.set_span_in_context(span, parent_ctx)
            token = context.attach(new_context)
            result = await self.handler(msg)
            context.detach(token)
        return result


@tracer.start_as_current_span("batch")
def process_batch(items, baggage_ctx):
    # the decorator's scope restores the context when process_batch returns or raises
    context.attach(baggage_ctx)
    return [str(i) for i in items]
