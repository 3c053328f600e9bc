# expect: none
"""mcp-agent's human-input task: the catch-all handler reports the error to the workflow
through an await. The work's failure is handled; that the report itself could fail is
not counted (blind reviews judged 9 of 10 such tasks harmless: the report goes to an
`on_error` hook or the workflow that waits for it)."""
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
