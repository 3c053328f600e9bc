# expect: 12 CTX103
"""Same shape as a snapshot-only set/reset, but a call that can raise (scheduling a
task on the loop: RuntimeError without a running loop, whatever the factory raises)
runs between `set()` and `reset()`: an error leaves the stream id bound."""
import asyncio
from contextvars import ContextVar

_stream_ids: ContextVar[tuple] = ContextVar("stream_ids", default=())


def schedule_stream(stream_id, make_coro):
    token = _stream_ids.set((*_stream_ids.get(), stream_id))
    task = asyncio.get_running_loop().create_task(make_coro())
    _stream_ids.reset(token)
    return task
