# expect: 15 CTX108
"""Streaming frontend: the per-request output queue is registered, then the request is
submitted to the engine core with an `await` that sits before the `try` whose `finally`
pops the queue: a disconnect during the submit leaves the queue in the dict."""
import asyncio


class TextStreamer:
    def __init__(self, core):
        self.core = core
        self.queues: dict[str, asyncio.Queue] = {}

    async def stream(self, req_id: str, prompt_ids: list[int], sampling):
        out: asyncio.Queue = asyncio.Queue()
        self.queues[req_id] = out
        await self.core.submit(req_id, prompt_ids, sampling)
        try:
            while True:
                piece = await out.get()
                yield piece
                if piece.done:
                    return
        finally:
            self.queues.pop(req_id, None)
