# expect: 17 CTX108 per-request entry put in long-lived `self._pending`
"""The housekeeping task drops an entry only once the engine reports the request
finished; a request cancelled before the engine knew it is never finished there."""
import asyncio


class RequestRegistry:
    def __init__(self, engine) -> None:
        self.engine = engine
        self._pending: dict[str, object] = {}
        self._housekeeping_task = None

    def start(self) -> None:
        self._housekeeping_task = asyncio.create_task(self._housekeeping())

    async def submit(self, request_id: str, request) -> None:
        self._pending[request_id] = request
        await self.engine.send(request_id, request)
        self._pending.pop(request_id, None)

    async def _housekeeping(self) -> None:
        while True:
            await asyncio.sleep(10)
            for request_id in list(self._pending):
                if self.engine.is_finished(request_id):
                    self._pending.pop(request_id, None)
