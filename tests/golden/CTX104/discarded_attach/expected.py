from opentelemetry import context, trace

tracer = trace.get_tracer(__name__)


def consume(message):
    span = tracer.start_span("consume")
    # make the span current for the handler's own instrumentation
    token = context.attach(trace.set_span_in_context(span))
    try:
        try:
            handle(message)
        finally:
            span.end()
    finally:
        context.detach(token)
