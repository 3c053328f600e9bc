# expect: 24 CTX108 per-request entry put in long-lived `self._pending`
"""The background reaper drops only entries marked done; a submit cancelled during
the send never marks its entry done, so the reaper keeps it forever."""
import asyncio


class PendingEntry:
    def __init__(self, request) -> None:
        self.request = request
        self.done = False


class RequestRegistry:
    def __init__(self, engine) -> None:
        self.engine = engine
        self._pending: dict[str, PendingEntry] = {}
        self._reaper_task = None

    def start(self) -> None:
        self._reaper_task = asyncio.create_task(self._reaper())

    async def submit(self, request_id: str, request) -> None:
        entry = PendingEntry(request)
        self._pending[request_id] = entry
        await self.engine.send(request_id, request)
        entry.done = True

    async def _reaper(self) -> None:
        while True:
            await asyncio.sleep(10)
            for request_id in list(self._pending):
                if self._pending[request_id].done:
                    self._pending.pop(request_id)
