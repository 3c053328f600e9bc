# expect: 14 CTX108 per-request entry put in long-lived `self.live`
"""The `finally` after registering releases a lock, not the request's entry: a
cancellation during the hand-off to the engine leaves `self.live[request_id]` forever."""
import threading


class RequestRouter:
    def __init__(self, engine) -> None:
        self.engine = engine
        self._prep_lock = threading.Lock()
        self.live: dict[str, object] = {}

    async def route(self, request_id: str, request) -> None:
        self.live[request_id] = request
        self._prep_lock.acquire()
        try:
            batch = self.engine.prepare(request)
        finally:
            self._prep_lock.release()
        await self.engine.submit(request_id, batch)
        del self.live[request_id]

    def abort(self, request_id: str) -> None:
        self.live.pop(request_id, None)
