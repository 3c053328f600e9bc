# expect: none
"""The keep-alive pinger is a child of the TaskGroup around the `yield`: when the
with-body raises, the group's exit cancels it; the explicit cancel is only needed so
the normal exit does not wait for an endless loop."""
import asyncio
from contextlib import asynccontextmanager


async def ping_forever(conn, every: float) -> None:
    while True:
        await conn.ping()
        await asyncio.sleep(every)


@asynccontextmanager
async def kept_alive(conn, every: float = 15.0):
    async with asyncio.TaskGroup() as tg:
        pinger = tg.create_task(ping_forever(conn, every))
        yield conn
        pinger.cancel()
