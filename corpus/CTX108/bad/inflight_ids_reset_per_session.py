# expect: 20 CTX108
"""A set of in-flight tool-call ids, reset when a session starts: the id is added
before the work on it is done (the lock's await does not use it), so a cancellation
at the send leaves an unfinished call's id behind until the next session.
The settled-ids exemption must not cover it."""
import asyncio


class RealtimeLLMService:
    def __init__(self, ws):
        self.ws = ws
        self._lock = asyncio.Lock()
        self._inflight_calls: set[str] = set()

    async def start_session(self) -> None:
        self._inflight_calls = set()

    async def call_tool(self, tool_call_id: str, args: dict) -> None:
        await self._lock.acquire()
        self._inflight_calls.add(tool_call_id)
        await self.ws.send(tool_call_id, args)

    def on_tool_done(self, tool_call_id: str) -> None:
        self._inflight_calls.discard(tool_call_id)
