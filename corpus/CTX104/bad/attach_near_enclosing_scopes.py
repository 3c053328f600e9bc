# expect: 19 CTX104
# expect: 28 CTX104
# expect: 36 CTX104
# Near misses of the enclosing-scope exemption: a `with` that is not an OTel span
# scope (a lock), an attach after the span scope has ended, and a `finally` that
# resets a ContextVar token rather than detaching an outer attach.
import contextvars
import threading

from opentelemetry import context, trace

tracer = trace.get_tracer(__name__)
_lock = threading.Lock()
request_id = contextvars.ContextVar("request_id", default=None)


def under_lock(ctx):
    with _lock:
        token = context.attach(ctx)
        work()
        context.detach(token)


def after_scope(ctx):
    with tracer.start_as_current_span("setup"):
        prepare()
    # the span scope is over: nothing resets this attach
    token = context.attach(ctx)
    work()
    context.detach(token)


def cv_finally(ctx, rid):
    tok = request_id.set(rid)
    try:
        token = context.attach(ctx)
        work()
        context.detach(token)
    finally:
        request_id.reset(tok)


def prepare():
    return None


def work():
    return None
