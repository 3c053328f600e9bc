# expect: 18 CTX106
"""The session's `async with` encloses the `yield`, but the heartbeat task was made
on the event loop, not by the session: if the with-body raises, nothing cancels it
and it keeps pinging a closed session."""
import asyncio
from contextlib import asynccontextmanager


@asynccontextmanager
async def leased_worker(pool, lease_seconds: float):
    loop = asyncio.get_running_loop()
    async with pool.lease() as worker:
        async def renew():
            while True:
                await asyncio.sleep(lease_seconds / 2)
                await worker.renew()
        renewal = loop.create_task(renew())
        yield worker
        renewal.cancel()
