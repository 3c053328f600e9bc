# expect: none
"""The pooled connection goes back in `finally`; a timing context manager that puts
a latency sample on a queue after the yield reports success only, which is not
returning a resource."""
import queue
import time
from contextlib import contextmanager


class ConnectionPool:
    def __init__(self, conns):
        self._free: queue.Queue = queue.Queue()
        for c in conns:
            self._free.put(c)

    @contextmanager
    def connection(self):
        conn = self._free.get()
        try:
            yield conn
        finally:
            self._free.put(conn)


@contextmanager
def timed(samples: queue.Queue):
    start = time.monotonic()
    yield
    samples.put(time.monotonic() - start)
