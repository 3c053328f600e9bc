# expect: 19 CTX108
"""A registration in an `async def` that is not a response stream is CTX108's finding."""
import asyncio


class Frontend:
    def __init__(self, core) -> None:
        self.core = core
        self.live: dict[str, asyncio.Queue] = {}

    def abort(self, request_id: str) -> None:
        self.live.pop(request_id, None)

    async def add(self, request_id: str, prompt: str) -> asyncio.Queue:
        # not handed to a streaming response: the registry entry before the awaited
        # hand-off is CTX108's (cancellation window), never CTX110's
        queue: asyncio.Queue = asyncio.Queue()
        queue.put_nowait(prompt)
        self.live[request_id] = queue
        await self.core.submit(request_id, prompt)
        return queue
