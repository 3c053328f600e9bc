# expect: 14 CTX104
"""Next to good/token_stack_in_contextvar_popped_elsewhere.py: the token goes onto a
ContextVar-held stack, but the exit function only ends the span it pops - the token is
dropped and the context stays attached."""
from contextvars import ContextVar

from opentelemetry import context, trace

_open: ContextVar[list | None] = ContextVar("open_scopes", default=None)


def begin(tracer, label: str):
    span = tracer.start_span(label)
    tok = context.attach(trace.set_span_in_context(span))
    pending = list(_open.get() or [])
    pending.append((tok, span))
    _open.set(pending)
    return span


def finish():
    pending = list(_open.get())
    _, span = pending.pop()
    _open.set(pending)
    span.end()
