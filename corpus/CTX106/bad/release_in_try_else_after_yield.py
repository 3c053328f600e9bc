# expect: 22 CTX106
# Reported in review of stop 22's exemptions: a release in the try's else: runs only when the body succeeded.
# (A real bug the first version of the exemption silenced.)
from contextlib import contextmanager


class Pool:
    def __init__(self) -> None:
        self.free = ["a", "b"]

    def acquire(self) -> str:
        return self.free.pop()

    def release(self, conn: str) -> None:
        self.free.append(conn)


@contextmanager
def connection(pool: Pool):
    conn = pool.acquire()
    try:
        yield conn
    except KeyboardInterrupt:
        raise
    else:
        pool.release(conn)   # runs only on success: every failed block leaks a connection
