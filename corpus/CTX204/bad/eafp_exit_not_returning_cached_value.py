# expect: 14 CTX204
# expect: 19 CTX204
# expect: 20 CTX204
"""Kind: the EAFP exit returns `None` when the lock is busy, not the cached lock: when it is
free the lock is replaced on every call, so the thread-local is rebuilt per task."""
import asyncio
import threading

_local = threading.local()


async def guarded(work):
    try:
        if _local.lock.locked():
            return None  # busy: give up
    except AttributeError:
        pass
    # an unlocked lock exists: replaced anyway on every call
    _local.lock = asyncio.Lock()
    async with _local.lock:
        return await work()
