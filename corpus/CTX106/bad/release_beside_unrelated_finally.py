# expect: 15 CTX106
"""A `finally` that releases the lock does not cover the connection taken before the
`yield`: closing it after the `yield` inside the `try` is skipped when the body raises."""
import threading
from contextlib import contextmanager

_lock = threading.Lock()


@contextmanager
def locked_connection(pool):
    _lock.acquire()
    conn = pool.connect()
    try:
        yield conn
        conn.commit()
        conn.close()
    finally:
        _lock.release()
