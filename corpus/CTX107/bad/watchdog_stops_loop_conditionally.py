# expect: 19 CTX107
# expect: 31 CTX107
"""Near misses of the loop-shutdown exemption: the health watchdog stops the loop only
when a probe fails (every other run of the task is unaccounted), and the playback
helper stops an object whose name merely says `loop`. Both tasks are dropped."""
import asyncio


async def _health_watchdog(loop: asyncio.AbstractEventLoop) -> None:
    while True:
        await asyncio.sleep(5)
        await probe_backend()
        if not backend_healthy():
            loop.stop()


def install_watchdog() -> None:
    loop = asyncio.get_running_loop()
    loop.create_task(_health_watchdog(loop))


class AudioSession:
    def __init__(self, playback_loop) -> None:
        self.playback_loop = playback_loop

    async def _finish(self) -> None:
        await asyncio.sleep(0)
        self.playback_loop.stop()

    def end(self) -> None:
        asyncio.create_task(self._finish())


async def probe_backend() -> None:
    await asyncio.sleep(0)


def backend_healthy() -> bool:
    return True
