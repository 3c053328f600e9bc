# expect: 26 CTX107
"""The exit hook itself may schedule a last close, but `connect` — the method that
registers the hook — runs at normal time, and the reader task it starts is dropped:
its failure is never retrieved and nothing can cancel it."""
import asyncio
import atexit


class FeedClient:
    def __init__(self, url: str):
        self.url = url
        self._stream = None

    def _close_at_exit(self) -> None:
        loop = asyncio.get_event_loop()
        if loop.is_running() and self._stream is not None:
            loop.create_task(self._stream.aclose())

    async def _read(self) -> None:
        async for event in self._stream:
            await self.handle(event)

    async def connect(self, opener) -> None:
        self._stream = await opener(self.url)
        atexit.register(self._close_at_exit)
        asyncio.create_task(self._read())

    async def handle(self, event) -> None:
        await asyncio.sleep(0)
