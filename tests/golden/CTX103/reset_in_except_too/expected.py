import contextvars

_span_ctx = contextvars.ContextVar("span_ctx")


def traced(fn, span):
    tok = _span_ctx.set(span)
    try:
        try:
            result = fn()
        except Exception:
            raise
    finally:
        _span_ctx.reset(tok)
    return result
