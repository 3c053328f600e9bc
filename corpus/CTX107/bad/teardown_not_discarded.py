# expect: 31 CTX107
# expect: 35 CTX107
# expect: 39 CTX107
# expect: 47 CTX107
# expect: 54 CTX107
"""Next to the exemptions: a close the owner still depends on (its own cleanup, an
entry it keeps), a coroutine bound to a local whose def lets errors escape, and a
scheduled task that does not stop the loop."""
import asyncio


class Browser:
    async def close(self) -> None:
        await asyncio.sleep(0)


class Toolkit:
    def __init__(self) -> None:
        self._browsers: dict[str, Browser] = {}

    async def cleanup(self) -> None:
        for b in self._browsers.values():
            await b.close()

    async def _flush(self, rows: list) -> None:
        await asyncio.sleep(0)
        if not rows:
            raise RuntimeError("nothing to flush")

    def sync_cleanup(self) -> None:
        asyncio.create_task(self.cleanup())

    def restart(self, key: str) -> None:
        if key in self._browsers:
            asyncio.create_task(self._browsers[key].close())

    def flush_later(self, rows: list) -> None:
        pending = self._flush(rows)
        asyncio.create_task(pending)


async def send_loop(queue: asyncio.Queue) -> None:
    await queue.get()


def start_sender(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue) -> None:
    loop.call_soon_threadsafe(loop.create_task, send_loop(queue))


def start_other(queue: asyncio.Queue) -> None:
    work = send_loop(queue)
    if queue.empty():
        work = send_loop(asyncio.Queue())
    asyncio.ensure_future(work)
