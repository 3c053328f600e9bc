# expect: 32 CTX106
"""This module's own grouping class only records its tasks; its `__aexit__` logs
and returns without cancelling them, so the poller the generator started leaks when
the with-body raises."""
import asyncio
import logging
from contextlib import asynccontextmanager

log = logging.getLogger(__name__)


class TaskBook:
    def __init__(self):
        self.started: list[asyncio.Task] = []

    async def __aenter__(self):
        return self

    async def __aexit__(self, exc_type, exc, tb):
        log.debug("leaving with %d tasks", len(self.started))

    def start(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self.started.append(task)
        return task


@asynccontextmanager
async def polled(source, interval: float):
    async with TaskBook() as book:
        poller = book.start(source.poll_forever(interval))
        yield source
        poller.cancel()
