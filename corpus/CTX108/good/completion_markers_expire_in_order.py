# expect: none
"""A router remembers recently completed request ids with their completion time, so
that a late reservation for a finished request is ignored. The markers are meant to
outlive the request (the normal path leaves them too); they live in insertion order
and every routing call first drops the markers at the head that are past the TTL,
so a completion cancelled while freeing its reservation leaves a marker that expires
like any other. A second table keeps the last few request ids, evicting the oldest
once it is over its size. Shape of ray's KVTokenTracker `_completed_request_ids`."""
import time
from collections import OrderedDict

TRACKING_TTL_S = 300.0
RECENT_MAX = 256


class KVRouterTracker:
    def __init__(self, svc) -> None:
        self._svc = svc
        self._requests: dict[str, int] = {}
        self._completed: "OrderedDict[str, float]" = OrderedDict()
        self._recent: dict[str, int] = {}

    async def select_worker(self, request_id: str, tokens: list[int]) -> int:
        await self._evict_stale()
        worker = await self._svc.select(request_id, tokens)
        self._requests[request_id] = worker
        self._completed.pop(request_id, None)
        return worker

    async def on_request_completed(self, request_id: str) -> None:
        worker = self._requests.pop(request_id, None)
        self._mark_completed(request_id)
        if worker is None:
            return
        await self._svc.free_reservation(request_id)

    def _mark_completed(self, request_id: str) -> None:
        self._completed.pop(request_id, None)
        self._completed[request_id] = time.monotonic()

    async def _evict_stale(self) -> None:
        cutoff = time.monotonic() - TRACKING_TTL_S
        while self._completed:
            request_id, completed_at = next(iter(self._completed.items()))
            if completed_at > cutoff:
                break
            self._completed.pop(request_id, None)

    async def on_prefill(self, request_id: str, worker: int) -> None:
        self._recent[request_id] = worker
        if len(self._recent) > RECENT_MAX:
            oldest = next(iter(self._recent))
            del self._recent[oldest]
        await self._svc.prefill_complete(request_id)
