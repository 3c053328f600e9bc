# expect: none
# A worker's shutdown: the graceful path stops the loop it owns (only if it has
# one), a second request takes the forceful path, which ends the process; the
# signal handler is chosen by configuration. Each task is the shutdown sequence.
import asyncio
import signal
import sys


class Worker:
    def __init__(self, force_on_signal: bool) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._killing = False
        self.force_on_signal = force_on_signal

    def start(self) -> None:
        self._loop = asyncio.new_event_loop()
        signal.signal(
            signal.SIGTERM,
            self._handle_force_quit if self.force_on_signal else self._handle_exit,
        )
        self._loop.create_task(self._health_check())
        self._loop.run_forever()

    def _handle_exit(self, signum, frame) -> None:
        if self._loop:
            self._loop.create_task(self.exit_gracefully())

    def _handle_force_quit(self, signum, frame) -> None:
        if self._loop:
            self._loop.create_task(self._exit_forcefully())

    async def _health_check(self) -> None:
        try:
            while not self._killing:
                if not await self._listener_alive():
                    if self._loop:
                        self._loop.create_task(self.exit_gracefully())
                    break
                await asyncio.sleep(1)
        except Exception:
            pass

    async def _listener_alive(self) -> bool:
        await asyncio.sleep(0)
        return True

    async def exit_gracefully(self) -> None:
        if self._killing:
            return await self._exit_forcefully()
        self._killing = True
        await self._drain()
        if self._loop is not None:
            self._loop.stop()

    async def _exit_forcefully(self) -> None:
        self._killing = True
        await self._drain()
        sys.exit(1)

    async def _drain(self) -> None:
        await asyncio.sleep(0)
