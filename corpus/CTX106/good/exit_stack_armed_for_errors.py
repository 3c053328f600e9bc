# expect: none
"""Background workers whose error path is armed on an exit stack before the `yield`:
if the with-body raises, the stack's exit stops the worker at once; on success the
stack is disarmed (`pop_all()`) and the worker is drained instead."""
import asyncio
from contextlib import AsyncExitStack, asynccontextmanager


class EventPump:
    def __init__(self, queue: asyncio.Queue):
        self.queue = queue
        self.task = None

    async def shutdown(self, drain: bool) -> None:
        if drain:
            await self.queue.join()
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self, handler) -> None:
        while True:
            item = await self.queue.get()
            await handler(item)
            self.queue.task_done()

    @asynccontextmanager
    async def running(self, handler, drain: bool = True):
        self.task = asyncio.create_task(self._run(handler))
        async with AsyncExitStack() as stack:
            stack.push_async_callback(self.shutdown, drain=False)
            yield self
            stack.pop_all()
            await self.shutdown(drain=drain)


@asynccontextmanager
async def leased_sessions(pool, n: int):
    sessions = []
    async with AsyncExitStack() as stack:
        for _ in range(n):
            session = await stack.enter_async_context(pool.lease())
            sessions.append(session)
        yield sessions
        stack.pop_all()
        for session in sessions:
            await session.close()
