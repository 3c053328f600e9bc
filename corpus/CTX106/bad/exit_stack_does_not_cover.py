# expect: 29 CTX106 conn.close
# expect: 42 CTX106 h.remove
# expect: 54 CTX106 h.remove
"""Exit stacks that do not cover the cleanup after the `yield`: the stack holds
something else, its `with` ends before the `yield`, or it was emptied before it."""
import asyncio
from contextlib import AsyncExitStack, ExitStack, asynccontextmanager, contextmanager


class Feed:
    def __init__(self, conn):
        self.conn = conn
        self.task = None

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _pump(self) -> None:
        while True:
            await asyncio.sleep(1)
            await self.conn.ping()

    @asynccontextmanager
    async def live(self):
        self.task = asyncio.create_task(self._pump())
        async with AsyncExitStack() as stack:
            stack.push_async_callback(self.stop)
            yield self
            stack.pop_all()
            await self.stop()
            await self.conn.close()


@contextmanager
def hooked(model, record):
    with ExitStack() as stack:
        handles = [m.register_forward_hook(record) for m in model.modules()]
        for h in handles:
            stack.callback(h.remove)
        stack.pop_all()
    yield handles
    for h in handles:
        h.remove()


@contextmanager
def hooked_disarmed_early(model, record):
    with ExitStack() as stack:
        handles = [m.register_forward_hook(record) for m in model.modules()]
        for h in handles:
            stack.callback(h.remove)
        kept = stack.pop_all()
        yield handles, kept
        for h in handles:
            h.remove()
