# expect: 27 CTX108
"""The helper registers the request on the path where it returns True, and the caller
returns only on False: the awaited hand-off is on the insertion's own path, so a
cancellation there leaks the entry (the helper-result path check must not hide it)."""
import asyncio


class StreamState:
    def __init__(self, stream_id: str) -> None:
        self.stream_id = stream_id
        self.queue: asyncio.Queue = asyncio.Queue()


class StreamHub:
    def __init__(self, broker, capacity: int) -> None:
        self.broker = broker
        self.capacity = capacity
        self._streams: dict[str, StreamState] = {}

    def _open(self, stream_id: str) -> bool:
        if len(self._streams) >= self.capacity:
            return False
        self._streams[stream_id] = StreamState(stream_id)
        return True

    async def subscribe(self, stream_id: str, topic: str) -> asyncio.Queue | None:
        opened = self._open(stream_id)
        if not opened:
            return None
        await self.broker.announce(stream_id, topic)
        return self._streams[stream_id].queue

    def close(self, stream_id: str) -> None:
        self._streams.pop(stream_id, None)
