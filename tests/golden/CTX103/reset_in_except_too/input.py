import contextvars

_span_ctx = contextvars.ContextVar("span_ctx")


def traced(fn, span):
    tok = _span_ctx.set(span)
    try:
        result = fn()
    except Exception:
        _span_ctx.reset(tok)
        raise
    _span_ctx.reset(tok)
    return result
