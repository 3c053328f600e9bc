# expect: none
"""A supervisor class of this module whose `__aexit__` cancels whatever it started:
the watcher it starts inside the context manager is cancelled on every exit path."""
import asyncio
from contextlib import asynccontextmanager


class Supervisor:
    def __init__(self):
        self._children: set[asyncio.Task] = set()

    async def __aenter__(self):
        return self

    async def __aexit__(self, exc_type, exc, tb):
        await self._shutdown()

    async def _shutdown(self):
        for t in self._children:
            t.cancel()
        await asyncio.gather(*self._children, return_exceptions=True)

    def spawn(self, coro) -> asyncio.Task:
        t = asyncio.get_running_loop().create_task(coro)
        self._children.add(t)
        return t


@asynccontextmanager
async def watching(job, on_change):
    async with Supervisor() as sup:
        watcher = None
        if on_change is not None:
            watcher = sup.spawn(job.watch(on_change))
        yield job
        if watcher is not None:
            watcher.cancel()
