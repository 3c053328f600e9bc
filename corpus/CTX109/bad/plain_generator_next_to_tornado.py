# expect: 12 CTX109
# Near miss of the tornado-driven exemption: a plain generator (no tornado decorator)
# is resumed by whoever iterates it, in whatever Context that is.
import contextvars

from tornado import gen

request_id = contextvars.ContextVar("request_id", default=None)


def stream_rows(rid, rows):
    token = request_id.set(rid)
    for row in rows:
        yield row
    request_id.reset(token)


@gen.coroutine
def first_row(rid, rows):
    return next(stream_rows(rid, rows))
