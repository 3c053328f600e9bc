# expect: none
"""A batching store starts its flush loop when it is built; a read only restarts the
loop if it has died (langgraph's batched store shape). The normal task is the
constructor's, not a request's."""
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
        self._task: asyncio.Task | None = None
        self._ensure_flusher()

    def _ensure_flusher(self) -> None:
        if self._task is None or self._task.done():
            self._task = self._loop.create_task(_flush_forever(self._queue, weakref.ref(self)))

    async def write(self, batch) -> None:
        pass

    async def get(self, request_id: str, key: str):
        self._ensure_flusher()
        fut = self._loop.create_future()
        self._queue.put_nowait((request_id, key, fut))
        return await fut
