# expect: none
"""The task group's own exit cancels its children when the body raises: the
cancel after the yield is only the normal path's."""
from contextlib import asynccontextmanager

import anyio


@asynccontextmanager
async def event_stream(url: str, reader, writer):
    async with anyio.create_task_group() as tg:
        tg.start_soon(reader, url)
        tg.start_soon(writer, url)
        yield
        tg.cancel_scope.cancel()
