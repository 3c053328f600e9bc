# expect: 14 CTX204
# expect: 15 CTX204
# expect: 16 CTX204
# expect: 26 CTX204
"""Per-request DB session: created lazily, deleted at the end of the request."""
import threading

from myapp.db import Session

_local = threading.local()


def get_session():
    if getattr(_local, "session", None) is None:
        _local.session = Session()
    return _local.session


async def handle(request):
    session = get_session()
    try:
        rows = await session.fetch(request.query)   # another task on the loop now shares it
        await session.commit()
        return rows
    finally:
        del _local.session                           # ends the request's session under the other task
