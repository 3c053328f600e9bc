# expect: 29 CTX205
"""Near miss: the store starts its loop when built, but every read starts another one
unconditionally, so each request's contextvars go into a new long-lived loop."""
import asyncio
import weakref


async def _flush_forever(queue: asyncio.Queue, owner_ref) -> None:
    while True:
        batch = await queue.get()
        owner = owner_ref()
        if owner is None:
            break
        await owner.write(batch)


class BatchedStore:
    def __init__(self) -> None:
        self._queue: asyncio.Queue = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(_flush_forever(self._queue, weakref.ref(self)))

    async def write(self, batch) -> None:
        pass

    async def get(self, request_id: str, key: str):
        if self._task.done():
            pass
        self._task = self._loop.create_task(_flush_forever(self._queue, weakref.ref(self)))
        fut = self._loop.create_future()
        self._queue.put_nowait((request_id, key, fut))
        return await fut
