# expect: 15 CTX108
"""The store is in an `if` branch that falls through to the hand-off: the same path
reaches the await, so a cancellation there leaks the entry (the exclusive-branch
and return-on-path exemptions must not hide it)."""
import asyncio


class Frontend:
    def __init__(self, core):
        self.core = core
        self.live: dict[str, asyncio.Queue] = {}

    async def add(self, request_id: str, prompt: list[int], stream: bool) -> None:
        if stream:
            self.live[request_id] = asyncio.Queue()
        else:
            pass
        await self.core.submit(request_id, prompt)

    def finish(self, request_id: str) -> None:
        self.live.pop(request_id, None)
