# expect: 27 CTX108 per-request entry put in long-lived `self._completed`
# expect: 48 CTX108 per-request entry put in long-lived `self._busy`
# expect: 57 CTX108 per-request entry put in long-lived `self._waiters`
"""Near misses of the bounded-domain and in-order-expiry exemptions. The completion
markers are removed from the head only by `close()`, which drains the table without
any age or size test, and by a reaper that drops a head marker only when the backend
says it is acknowledged: neither expires a marker a cancelled call leaves behind. The
slot table is keyed by a slot index from `range(n)`, but the call frees its slot
itself after the await: cancelled there, the slot stays taken for good. And a
request id read from a counter the client increments per call is a new key every
time, not an attribute fixed at construction."""
import asyncio


class SlotRouter:
    def __init__(self, svc, n: int) -> None:
        self._svc = svc
        self._n = n
        self._requests: dict[str, int] = {}
        self._completed: dict[str, float] = {}
        self._busy: dict[int, str] = {}
        self._next_id = 0
        self._waiters: dict[int, asyncio.Future] = {}

    async def on_request_completed(self, request_id: str) -> None:
        self._requests.pop(request_id, None)
        self._completed[request_id] = 1.0
        await self._svc.free_reservation(request_id)

    def reap(self) -> None:
        while self._completed:
            request_id = next(iter(self._completed))
            if not self._svc.acked(request_id):
                break
            self._completed.pop(request_id, None)

    def close(self) -> None:
        while self._completed:
            request_id = next(iter(self._completed))
            self._completed.pop(request_id, None)

    async def run_in_slot(self, request_id: str, job: dict) -> dict:
        for slot in range(self._n):
            if slot not in self._busy:
                break
        else:
            raise RuntimeError("no free slot")
        self._busy[slot] = request_id
        reply = await self._svc.run(slot, request_id, job)
        del self._busy[slot]
        return reply

    async def call(self, method: str, params: dict) -> object:
        self._next_id += 1
        request_id = self._next_id
        future = asyncio.get_running_loop().create_future()
        self._waiters[request_id] = future
        await self._svc.send({"id": request_id, "method": method, "params": params})
        try:
            return await asyncio.wait_for(future, timeout=5)
        except asyncio.TimeoutError:
            self._waiters.pop(request_id, None)
            return None

    def on_message(self, message: dict) -> None:
        future = self._waiters.pop(message["id"], None)
        if future is not None and not future.done():
            future.set_result(message.get("result"))
