# expect: none
"""The stream id is bound only long enough to snapshot the Context for a worker
thread: between `set()` and `reset()` there is only `contextvars.copy_context()`, which
cannot raise, so the reset always runs and no `finally` is needed."""
import contextvars
import threading
from contextvars import ContextVar

_stream_ids: ContextVar[tuple] = ContextVar("stream_ids", default=())


def start_stream_worker(stream_id, target):
    token = _stream_ids.set((*_stream_ids.get(), stream_id))
    snapshot = contextvars.copy_context()
    started_at = None
    _stream_ids.reset(token)
    worker = threading.Thread(target=snapshot.run, args=(target,), daemon=True)
    worker.start()
    return worker, started_at
