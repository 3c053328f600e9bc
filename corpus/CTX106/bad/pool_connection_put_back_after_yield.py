# expect: 20 CTX106
# expect: 33 CTX106
"""Check a connection (or a KV-cache worker) out of a pool, lend it to the with-body,
and return it after the yield. If the body raises, the connection is never returned
and the pool drains one slot per failed request."""
import asyncio
import queue
from contextlib import asynccontextmanager, contextmanager


class ConnectionPool:
    def __init__(self, size: int, factory):
        self._free: queue.LifoQueue = queue.LifoQueue()
        for _ in range(size):
            self._free.put(factory())

    @contextmanager
    def connection(self, timeout: float = 5.0):
        conn = self._free.get(timeout=timeout)
        yield conn
        self._free.put(conn)


class AsyncWorkerPool:
    def __init__(self, workers):
        self._idle: asyncio.Queue = asyncio.Queue()
        for w in workers:
            self._idle.put_nowait(w)

    @asynccontextmanager
    async def lease(self):
        worker = await self._idle.get()
        yield worker
        await self._idle.put(worker)
