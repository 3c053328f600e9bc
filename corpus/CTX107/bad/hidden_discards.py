# expect: 17 CTX107
# expect: 21 CTX107
# expect: 25 CTX107
"""Tasks whose only reference is dropped in less obvious ways."""
import asyncio

usage_rows: list = []


async def flush_usage(batch: list) -> None:
    await asyncio.sleep(0)
    usage_rows.extend(batch)


def on_batch_ready(batch: list) -> None:
    # `_` is a local like any other: it dies with the frame, the task with it
    _ = asyncio.create_task(flush_usage(batch))


def on_batch_from_thread(loop: asyncio.AbstractEventLoop, batch: list) -> None:
    loop.call_soon_threadsafe(asyncio.create_task, flush_usage(batch))


def flush_with_callback(batch: list) -> None:
    asyncio.ensure_future(flush_usage(batch)).add_done_callback(lambda t: t.exception())
