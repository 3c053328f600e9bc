# expect: none
"""A dispatcher that records each submitted request with its start time. Every
submission first drops the records older than the deadline, so a cancellation
during the backend call leaves its record only until a later submission prunes it.
Shape of litellm's prune-on-use cache (CodeInterpreterInterception
`_prune_expired_cache` awaited before each `_acquire_sandbox`), with a sync pruner
and the records of one request each."""
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
        self._forget_overdue()
        self._inflight[request_id] = (time.monotonic(), job)
        reply = await self.backend.send(request_id, job)
        self._inflight.pop(request_id, None)
        return reply
