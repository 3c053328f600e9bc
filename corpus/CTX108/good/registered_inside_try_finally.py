# expect: none
"""SSE fan-out: the queue is registered and removed by the same try/finally."""
import asyncio

_streams: dict[str, asyncio.Queue] = {}


async def stream_events(stream_id: str, tenant_id: str, broker):
    queue: asyncio.Queue = asyncio.Queue(maxsize=256)
    try:
        _streams[stream_id] = queue
        await broker.announce(stream_id, tenant_id)
        while (item := await queue.get()) is not None:
            yield item
    finally:
        _streams.pop(stream_id, None)
