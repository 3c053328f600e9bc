# expect: none
"""Scheduler front door: a cancelled enqueue calls the terminal path that removes the entry."""
import asyncio


class BatchScheduler:
    def __init__(self, batcher):
        self.batcher = batcher
        self.inflight: dict[str, list[int]] = {}

    async def submit(self, rid: str, tokens: list[int]) -> None:
        self.inflight[rid] = tokens
        try:
            await self.batcher.enqueue(rid, tokens)
        except asyncio.CancelledError:
            self.abort(rid)
            raise

    def abort(self, rid: str) -> None:
        self._drop(rid)

    def _drop(self, rid: str) -> None:
        self.inflight.pop(rid, None)
