# expect: none
"""The coroutine removes its own entry at the end, and the only await in between puts
on a module-level `asyncio.Queue(maxsize=0)` (unbounded): that `put` cannot suspend,
so there is no cancellation point between the insertion and the removal."""
import asyncio
import time

_outbox: asyncio.Queue = asyncio.Queue(maxsize=0)


class Tracker:
    def __init__(self) -> None:
        self._started: dict[str, float] = {}

    async def mark(self, request_id: str, note: str) -> None:
        self._started[request_id] = time.monotonic()
        await _outbox.put((request_id, note))
        self._started.pop(request_id, None)
