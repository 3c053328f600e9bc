# expect: none
"""The lazily started output loop gets an empty Context."""
import asyncio
import contextvars


class AsyncEngine:
    def __init__(self, core):
        self.core = core
        self.output_task: asyncio.Task | None = None

    async def _output_loop(self) -> None:
        while True:
            await self.core.get_output()

    async def generate(self, request_id: str, prompt: str):
        if self.output_task is None:
            self.output_task = asyncio.create_task(self._output_loop(), context=contextvars.Context())
        await self.core.add_request(request_id, prompt)
