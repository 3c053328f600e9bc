# expect: none
"""A worker pool: per-worker counters keyed by the worker a request was routed to."""
import asyncio
from typing import Dict


class PoolEngine:
    def __init__(self, num_workers: int):
        self._num_workers = num_workers
        self._req_worker: Dict[str, int] = {}
        self._success_counts: Dict[int, int] = {}
        self._pending: Dict[str, asyncio.Future] = {}

    async def submit(self, request_id: str, payload) -> object:
        worker = self._least_loaded()
        self._req_worker[request_id] = worker
        fut = asyncio.get_running_loop().create_future()
        self._pending[request_id] = fut
        return await fut

    def _least_loaded(self) -> int:
        return min(range(self._num_workers), key=lambda w: self._success_counts.get(w, 0))

    def on_result(self, item: dict) -> None:
        req_id = item["req_id"]
        worker_idx = self._req_worker.pop(req_id, None)
        fut = self._pending.pop(req_id, None)
        if fut is not None:
            fut.set_result(item)
        if worker_idx is not None:
            self._success_counts[worker_idx] = self._success_counts.get(worker_idx, 0) + 1
