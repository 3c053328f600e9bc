# expect: 23 CTX108
"""An awaited step before the insertion is passed the request object (which carries
the id), not the id itself: preparing a request is not handing it out, so the submit
after the insertion is still the hand-off, and a cancellation there leaks the entry."""
import asyncio


class Req:
    def __init__(self, rid: str, text: str) -> None:
        self.rid = rid
        self.text = text


class Frontend:
    def __init__(self, tokenizer, core) -> None:
        self.tokenizer = tokenizer
        self.core = core
        self.live: dict[str, asyncio.Queue] = {}

    async def add(self, req: Req) -> asyncio.Queue:
        ids = await self.tokenizer.encode_async(req)
        queue: asyncio.Queue = asyncio.Queue()
        self.live[req.rid] = queue
        await self.core.submit(req.rid, ids)
        return queue

    def on_finished(self, rid: str) -> None:
        self.live.pop(rid, None)
