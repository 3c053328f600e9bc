# expect: none
"""A job service whose background task sweeps every registered job: once a job is
older than its time-to-live, `cleanup_job` drops the job and its public marker
together. Every entry reaches that age, so a cancellation during the marker's remote
write leaves the marker only until a sweep.
Reduced from langflow langflow/services/job_queue/service.py (register_public_job,
_periodic_cleanup, _cleanup_old_queues, cleanup_job)."""
import asyncio
import time


class JobService:
    def __init__(self, store, ttl: float = 3600.0) -> None:
        self.store = store
        self.ttl = ttl
        self._closed = False
        self._jobs: dict[str, tuple[float, asyncio.Task]] = {}
        self._public: set[str] = set()
        self._bg: asyncio.Task | None = None

    def start(self) -> None:
        self._bg = asyncio.create_task(self._housekeeping())

    def start_job(self, job_id: str, coro) -> None:
        self._jobs[job_id] = (time.monotonic(), asyncio.create_task(coro))

    async def mark_public(self, job_id: str) -> None:
        self._public.add(job_id)
        await self.store.set(f"public:{job_id}", b"1")

    async def cleanup_job(self, job_id: str) -> None:
        if job_id not in self._jobs:
            return
        _started, task = self._jobs[job_id]
        if not task.done():
            task.cancel()
        self._jobs.pop(job_id, None)
        self._public.discard(job_id)

    async def _housekeeping(self) -> None:
        while not self._closed:
            await asyncio.sleep(60)
            await self._collect_expired()

    async def _collect_expired(self) -> None:
        now = time.monotonic()
        for job_id, (started, _task) in list(self._jobs.items()):
            if now - started > self.ttl:
                await self.cleanup_job(job_id)
