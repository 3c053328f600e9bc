# expect: 10 CTX108
"""SSE fan-out: a queue per stream, announced to the broker before streaming starts."""
import asyncio

_streams: dict[str, asyncio.Queue] = {}


async def open_stream(stream_id: str, tenant_id: str, broker) -> asyncio.Queue:
    queue: asyncio.Queue = asyncio.Queue(maxsize=256)
    _streams[stream_id] = queue
    await broker.announce(stream_id, tenant_id)
    return queue


def close_stream(stream_id: str) -> None:
    queue = _streams.pop(stream_id, None)
    if queue is not None:
        queue.put_nowait(None)
