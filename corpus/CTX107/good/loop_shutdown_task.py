# expect: none
"""The task is the loop's own shutdown sequence: it cancels what is left and stops the
loop it runs on, so nothing remains on the loop to await it."""
import asyncio
import threading


def shutdown_loop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    done = threading.Event()

    async def _cancel_and_stop() -> None:
        pending = [t for t in asyncio.all_tasks(loop) if t is not asyncio.current_task()]
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        loop.stop()
        done.set()

    if loop.is_running():
        loop.call_soon_threadsafe(loop.create_task, _cancel_and_stop())
        done.wait(timeout=5)
    thread.join(timeout=5)


class Worker:
    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()

    async def _drain_and_halt(self) -> None:
        await asyncio.sleep(0)
        self._loop.stop()

    def request_stop(self) -> None:
        self._loop.create_task(self._drain_and_halt())
