# expect: 12 CTX104
"""The async twin of an openlit-style wrapper: `except Exception:` does not catch
`asyncio.CancelledError` (a BaseException since Python 3.8), so a timeout or a
cancelled request skips both detaches and the span's context stays attached."""
from opentelemetry import context, trace

tracer = trace.get_tracer("llm.wrapper")


async def wrapped_completion(call, *args, **kwargs):
    span = tracer.start_span("chat")
    token = context.attach(trace.set_span_in_context(span))
    try:
        response = await call(*args, **kwargs)
    except Exception as exc:
        context.detach(token)
        span.record_exception(exc)
        span.end()
        raise
    context.detach(token)
    span.end()
    return response
