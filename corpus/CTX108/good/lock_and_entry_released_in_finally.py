# expect: none
"""The `finally` after registering both releases the lock and drops this request's
entry through a helper that pops the key it is given: a cancellation during the
submit cannot strand the entry."""
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
            await self.engine.submit(request_id, request)
        finally:
            self._prep_lock.release()
            self._forget(request_id)

    def _forget(self, request_id: str) -> None:
        self.live.pop(request_id, None)
