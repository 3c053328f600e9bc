# expect: none
# The thread-local client cache is read only by a method that async code calls
# inside `asyncio.to_thread(lambda: ...)`: it runs on worker threads, where a
# per-thread client is the right design.
import asyncio
import threading


class Storage:
    def __init__(self, factory):
        self._factory = factory
        self._local = threading.local()

    def _get_client(self):
        client = getattr(self._local, "client", None)
        if client is None:
            client = self._local.client = self._factory()
        return client

    async def load(self, key):
        return await asyncio.to_thread(lambda: self._get_client().get(key))

    async def save(self, key, value):
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, lambda: self._get_client().put(key, value))
