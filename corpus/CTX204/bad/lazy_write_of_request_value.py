# expect: 13 CTX204
# expect: 14 CTX204
# expect: 15 CTX204
# expect: 19 CTX204
"""Near miss of the per-thread cache: the first request's user is stored under the
same once-per-thread test, so every later task on the loop reads that user."""
import threading

_state = threading.local()


async def current_user(request):
    if not hasattr(_state, "user"):
        _state.user = request.headers["x-user"]
    return _state.user


async def stamp(request_id: str):
    _state.request_id = request_id
