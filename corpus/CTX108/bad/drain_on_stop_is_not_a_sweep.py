# expect: 13 CTX108 per-request entry put in long-lived `self._pending`
"""`stop()` drains the table once (an awaited `wait_for`, not a background task):
until then, and for an object never stopped, a cancelled submit's entry stays."""
import asyncio


class RequestRegistry:
    def __init__(self, engine) -> None:
        self.engine = engine
        self._pending: dict[str, object] = {}

    async def submit(self, request_id: str, request) -> None:
        self._pending[request_id] = request
        await self.engine.send(request_id, request)
        self._pending.pop(request_id, None)

    async def stop(self) -> None:
        await asyncio.wait_for(self._drain(), 5)

    async def _drain(self) -> None:
        while self._pending:
            for request_id in list(self._pending):
                self._pending.pop(request_id, None)
            await asyncio.sleep(0)
