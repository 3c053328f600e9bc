# expect: none
"""Loop shutdown tasks in other shapes: a closure over a loop made with
`new_event_loop()`, and a method on a loop returned by `get_running_loop()`; each stops
its loop unconditionally as its last step. Also a client swapped out of a deque-backed
ring: popped first, then closed."""
import asyncio
from collections import deque


def run_engine_forever() -> None:
    engine_loop = asyncio.new_event_loop()

    async def _halt() -> None:
        for t in asyncio.all_tasks(engine_loop):
            t.cancel()
        await asyncio.sleep(0)
        engine_loop.stop()

    engine_loop.call_soon(engine_loop.create_task, _halt())
    engine_loop.run_forever()


class Server:
    def __init__(self) -> None:
        self._ring: deque = deque()

    async def _shutdown(self, runner: asyncio.AbstractEventLoop) -> None:
        await asyncio.sleep(0)
        runner.stop()

    def begin_shutdown(self) -> None:
        current = asyncio.get_running_loop()
        current.create_task(self._shutdown(current))

    def recycle(self) -> None:
        ring = deque(self._ring)
        stale = ring.popleft()
        asyncio.create_task(stale.aclose())
