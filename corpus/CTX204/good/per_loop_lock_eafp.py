# expect: none
"""Kind: a per-thread, per-loop lock built lazily behind an early exit (pyrate-limiter's
limiter): the cached lock is returned while the thread holds one for the running loop,
and `except AttributeError: pass` falls through to build it. Every task on the loop is
meant to share the lock: that is what serialises them. Nothing of one request is stored."""
import asyncio
import threading


class Limiter:
    def __init__(self, rate: int):
        self.rate = rate
        self._thread_local = threading.local()

    def _get_async_lock(self):
        loop = asyncio.get_running_loop()
        try:
            lock = self._thread_local.async_lock
            if self._thread_local.async_lock_loop is loop:
                return lock
        except AttributeError:
            pass
        lock = asyncio.Lock()
        self._thread_local.async_lock = lock
        self._thread_local.async_lock_loop = loop
        return lock

    async def acquire(self, weight: int = 1) -> bool:
        async with self._get_async_lock():
            await asyncio.sleep(weight / self.rate)
            return True


_local = threading.local()


def _session():
    if hasattr(_local, "session"):
        return _local.session
    _local.session = {"opened_by": threading.get_ident()}
    return _local.session


async def fetch(url: str) -> dict:
    s = _session()
    await asyncio.sleep(0)
    return {"url": url, "session": s}
