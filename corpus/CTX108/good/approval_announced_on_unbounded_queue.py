# expect: none
"""A pending approval is parked until the user answers, then announced on the
session's event queue. The queue is an unbounded `asyncio.Queue`, so awaiting its
`put` (here through a small helper) never suspends: no cancellation can arrive there,
and the entry waits for approve/deny exactly as intended."""
import asyncio


class Session:
    def __init__(self) -> None:
        self._events: asyncio.Queue = asyncio.Queue()
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

    async def deny(self, call_id: str) -> None:
        self._awaiting.pop(call_id, None)
