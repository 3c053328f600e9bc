# expect: 13 CTX109
"""Near miss of Twisted's `inlineCallbacks`: this generator is not decorated; it is a
producer that the transport's consumer resumes from its own callbacks, each in the
Context of whoever calls `next()`."""
import contextvars

from twisted.internet import defer

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def stream_rows(rid: str, rows):
    token = request_id.set(rid)
    try:
        for row in rows:
            yield row.encode()
    finally:
        request_id.reset(token)


@defer.inlineCallbacks
def render_stream(rid, backend, request):
    rows = yield backend.query(rid)
    request.registerProducer(stream_rows(rid, rows), streaming=False)
