# expect: 29 CTX107
# expect: 33 CTX107
# Near misses of the shutdown exemption: a "shutdown" that returns early without
# stopping anything when it is already stopping, and one that stops the loop only
# when a health flag says so. Both tasks can fail unseen and run past shutdown.
import asyncio


class Pump:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        self.healthy = True

    async def shutdown(self) -> None:
        if self._stopping:
            return
        self._stopping = True
        await asyncio.sleep(0)
        if self._loop is not None:
            self._loop.stop()

    async def maybe_stop(self) -> None:
        await asyncio.sleep(0)
        if not self.healthy:
            self._loop.stop()

    async def on_flush_error(self) -> None:
        asyncio.get_running_loop().create_task(self.shutdown())

    async def on_tick(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._loop.create_task(self.maybe_stop())
