# expect: 21 CTX108
"""The same parked-approval shape as an unbounded queue, but this queue has a size:
`put` waits while it is full, so the await is a cancellation point and, cancelled
there, the user never hears of the call and nothing removes the entry."""
import asyncio


class Session:
    def __init__(self) -> None:
        self._events: asyncio.Queue = asyncio.Queue(maxsize=64)
        self._awaiting: dict[str, dict] = {}
        self._closed = False

    async def _emit(self, event: dict) -> bool:
        if self._closed:
            return False
        await self._events.put(event)
        return True

    async def ask_approval(self, call_id: str, tool: str, args: dict) -> None:
        self._awaiting[call_id] = {"tool": tool, "args": args}
        await self._emit({"type": "approval_required", "call_id": call_id, "tool": tool})

    async def approve(self, call_id: str) -> dict | None:
        return self._awaiting.pop(call_id, None)
