# expect: none
"""Fixed twin of bad/own_queue_popped_in_later_finally.py: the submit is inside the
`try`, so its `finally` also covers a cancellation during the submit."""
import asyncio


class TextStreamer:
    def __init__(self, core):
        self.core = core
        self.queues: dict[str, asyncio.Queue] = {}

    async def stream(self, req_id: str, prompt_ids: list[int], sampling):
        out: asyncio.Queue = asyncio.Queue()
        self.queues[req_id] = out
        try:
            await self.core.submit(req_id, prompt_ids, sampling)
            while True:
                piece = await out.get()
                yield piece
                if piece.done:
                    return
        finally:
            self.queues.pop(req_id, None)
