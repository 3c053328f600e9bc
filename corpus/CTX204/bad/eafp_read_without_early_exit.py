# expect: 16 CTX204
# expect: 20 CTX204
# expect: 21 CTX204
"""Kind: the thread-local is read under `try/except AttributeError`, but nothing returns
the cached value: every call builds a new lock and overwrites the one another task on the
loop still holds, so two tasks can run the guarded section at once."""
import asyncio
import threading

_local = threading.local()


async def guarded(work):
    try:
        # report the old lock's state, then replace it anyway
        busy = _local.lock.locked()
    except AttributeError:
        busy = False
    lock = asyncio.Lock()
    _local.lock = lock
    async with _local.lock:
        return busy, await work()
