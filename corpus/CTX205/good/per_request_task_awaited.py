# expect: none
"""A per-request task stored on the handler object but awaited before the request ends."""
import asyncio


class StreamHandler:
    def __init__(self, engine):
        self.engine = engine
        self._prefetch = None

    async def handle(self, request_id: str, prompt: str) -> str:
        self._prefetch = asyncio.create_task(self.engine.prefetch(prompt))
        header = await self.engine.header(request_id)
        body = await self._prefetch
        return header + body
