# expect: 22 CTX107
"""mcp-agent's human-input task: the catch-all handler itself awaits a signal to the
workflow, and that await can fail too; its error ends in a task nobody holds."""
import asyncio


class Agent:
    def __init__(self, executor, callback):
        self.executor = executor
        self.callback = callback

    def request_input(self, request_id: str, prompt: str) -> None:
        if self.callback is not None:

            async def call_callback_and_signal():
                try:
                    answer = await self.callback(prompt)
                    await self.executor.signal(request_id, payload=answer)
                except Exception as e:
                    await self.executor.signal(request_id, payload=f"error: {e}")

            asyncio.create_task(call_callback_and_signal())
