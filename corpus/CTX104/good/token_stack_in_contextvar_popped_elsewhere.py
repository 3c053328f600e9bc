# expect: none
"""Kind: an attach token pushed onto a stack that is the value of a ContextVar (a copy of
the list set back into the var); the module's matching exit function takes it back off
that stack and detaches it. The token is handed to an owner that releases it."""
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


def finish(failed: bool = False):
    pending = list(_open.get())
    tok, span = pending.pop()
    _open.set(pending)
    context.detach(tok)
    span.end()
