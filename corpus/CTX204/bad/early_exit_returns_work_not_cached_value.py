# expect: 16 CTX204
# expect: 18 CTX204
# expect: 19 CTX204
# expect: 20 CTX204
# expect: 25 CTX204
# expect: 27 CTX204
"""Kind: `if hasattr(tl, "warned"): return await work()` exits with the work's result, not
the cached value; the lock written after it is rebuilt by whichever task gets there."""
import asyncio
import threading

_local = threading.local()


async def guarded(work):
    if hasattr(_local, "warned"):
        return await work()
    _local.warned = True
    _local.lock = asyncio.Lock()
    async with _local.lock:
        return await work()


async def other(work):
    if hasattr(_local, "lock"):
        return await work()
    _local.lock = asyncio.Lock()
