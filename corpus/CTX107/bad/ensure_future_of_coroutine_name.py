# expect: 18 CTX107
# Near miss of the existing-task exemption: the name holds a coroutine object, not a
# task, so `ensure_future` creates a new task there, and only its callback is kept.
import asyncio
import logging

log = logging.getLogger(__name__)


async def flush(batch: list) -> None:
    await asyncio.sleep(0)
    log.info("flushed %d", len(batch))


def schedule_flush(batch: list) -> None:
    coro = flush(batch)
    # the task is built here and dropped after the callback is attached
    asyncio.ensure_future(coro).add_done_callback(lambda t: log.info("done"))
