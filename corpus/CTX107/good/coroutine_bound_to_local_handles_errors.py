# expect: none
"""The coroutine object is built first and handed to the task through a local name;
its `async def` catches and logs every failure itself, and releases in `finally`."""
import asyncio
import logging

log = logging.getLogger(__name__)


class Backend:
    def __init__(self, agent):
        self.agent = agent
        self.in_flight: set[str] = set()

    async def _wait_for_transfer(self, handle, keys: list[str]) -> None:
        try:
            while self.agent.state(handle) != "DONE":
                await asyncio.sleep(0.001)
        except Exception:
            log.exception("transfer of %d keys failed", len(keys))
        finally:
            self.in_flight.difference_update(keys)

    def put_async(self, keys: list[str]) -> None:
        coroutine = None
        try:
            handle = self.agent.post(keys)
            coroutine = self._wait_for_transfer(handle, keys)
            asyncio.create_task(coroutine)
        except Exception:
            if coroutine is not None:
                coroutine.close()
            raise


async def refresh_index(shard: int) -> None:
    try:
        await asyncio.sleep(0)
    except BaseException:
        log.warning("index refresh of shard %d failed", shard)


def on_shard_loaded(loop: asyncio.AbstractEventLoop, shard: int) -> None:
    job = refresh_index(shard)
    loop.create_task(job)
