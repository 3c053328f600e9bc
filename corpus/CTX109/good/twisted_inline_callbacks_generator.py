# expect: none
"""Twisted's `inlineCallbacks` copies the Context once and resumes every step of the
generator through it (Twisted >= 21.2), so a reset after a `yield` runs in the Context
of the set."""
import contextvars

from twisted.internet import defer

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


@defer.inlineCallbacks
def handle_request(rid: str, backend):
    token = request_id.set(rid)
    try:
        body = yield backend.fetch(rid)
        result = yield backend.render(body)
    finally:
        request_id.reset(token)
    return result
