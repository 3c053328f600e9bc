# expect: 13 CTX108
"""Async engine client: one future per request, resolved by the output loop."""
import asyncio


class EngineClient:
    def __init__(self, core):
        self.core = core
        self.pending: dict[str, asyncio.Future] = {}

    async def generate(self, request_id: str, prompt: str, params: dict) -> str:
        fut = asyncio.get_running_loop().create_future()
        self.pending[request_id] = fut
        await self.core.add_request(request_id, prompt, params)
        return await fut

    def on_output(self, request_id: str, text: str) -> None:
        fut = self.pending.pop(request_id, None)
        if fut is not None and not fut.done():
            fut.set_result(text)
