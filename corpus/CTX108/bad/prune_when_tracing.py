# expect: 23 CTX108
"""The prune runs only when the backend traces: with tracing off nothing ever
drops the record a cancelled submission leaves."""
import time

DEADLINE_S = 120.0


class Dispatcher:
    def __init__(self, backend) -> None:
        self.backend = backend
        self._inflight: dict[str, tuple[float, dict]] = {}

    def _forget_overdue(self) -> None:
        cutoff = time.monotonic() - DEADLINE_S
        for request_id, (started, _job) in list(self._inflight.items()):
            if started < cutoff:
                del self._inflight[request_id]

    async def submit(self, request_id: str, job: dict) -> dict:
        if self.backend.tracing:
            self._forget_overdue()
        self._inflight[request_id] = (time.monotonic(), job)
        reply = await self.backend.send(request_id, job)
        self._inflight.pop(request_id, None)
        return reply
