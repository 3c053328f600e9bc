# expect: 12 CTX106
"""Cleanup after `yield` in a @contextmanager is CTX106's finding, even around a stream."""
import asyncio
from contextlib import asynccontextmanager

kv_slots = asyncio.Semaphore(16)


@asynccontextmanager
async def slot():
    await kv_slots.acquire()
    yield
    kv_slots.release()
