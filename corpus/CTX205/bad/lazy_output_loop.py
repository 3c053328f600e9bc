# expect: 24 CTX205
"""Async engine client that starts its output loop on the first request."""
import asyncio
import contextvars

request_id_var = contextvars.ContextVar("request_id", default=None)


class AsyncEngine:
    def __init__(self, core):
        self.core = core
        self.queues: dict[str, asyncio.Queue] = {}
        self.output_task: asyncio.Task | None = None

    async def _output_loop(self) -> None:
        while True:
            rid, item = await self.core.get_output()
            q = self.queues.get(rid)
            if q is not None:
                q.put_nowait(item)

    async def generate(self, request_id: str, prompt: str):
        if self.output_task is None:
            self.output_task = asyncio.create_task(self._output_loop())
        q = self.queues[request_id] = asyncio.Queue()
        try:
            await self.core.add_request(request_id, prompt)
            while (item := await q.get()) is not None:
                yield item
        finally:
            self.queues.pop(request_id, None)
