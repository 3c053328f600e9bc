# expect: 14 CTX108
"""Scheduler front door: marks the request in flight, then hands it to the batcher."""
import asyncio


class BatchScheduler:
    def __init__(self, batcher):
        self.batcher = batcher
        self.inflight: set[str] = set()
        self.lock = asyncio.Lock()

    async def submit(self, rid: str, tokens: list[int]) -> None:
        async with self.lock:
            self.inflight.add(rid)
        await self.batcher.enqueue(rid, tokens)

    def finish(self, rid: str) -> None:
        self.inflight.discard(rid)
