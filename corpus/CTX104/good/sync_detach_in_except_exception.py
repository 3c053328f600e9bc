# expect: none
"""A sync streaming wrapper (the shape of openlit's instrumentations): the token is
detached in `except Exception:` and on the normal path. In sync code only
KeyboardInterrupt/SystemExit, which end the process, escape both."""
from opentelemetry import context, trace

tracer = trace.get_tracer("llm.wrapper")


def wrapped_completion(call, *args, **kwargs):
    span = tracer.start_span("chat")
    token = context.attach(trace.set_span_in_context(span))
    try:
        response = call(*args, **kwargs)
    except Exception as exc:
        context.detach(token)
        span.record_exception(exc)
        span.end()
        raise
    context.detach(token)
    span.end()
    return response
