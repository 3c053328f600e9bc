# expect: none
"""Registers the request only once the engine accepted it; the await before is harmless."""
import asyncio


class EngineFrontend:
    def __init__(self, core):
        self.core = core
        self.live: dict[str, asyncio.Queue] = {}

    async def add(self, rid: str, prompt_ids: list[int]) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue()
        await self.core.submit(rid, prompt_ids)
        self.live[rid] = queue
        return queue

    def finish(self, rid: str) -> None:
        self.live.pop(rid, None)
