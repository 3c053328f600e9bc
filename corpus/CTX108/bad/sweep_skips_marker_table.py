# expect: 26 CTX108 the periodic sweep drops finished jobs but never the public marker
"""Near miss of the swept job service: the background sweep walks every job, but the
cleanup it calls drops only the job; the marker is removed by `forget_public` alone,
so a cancellation during the marker's remote write leaves it forever."""
import asyncio


class JobService:
    def __init__(self, store) -> None:
        self.store = store
        self._closed = False
        self._jobs: dict[str, asyncio.Task] = {}
        self._public: set[str] = set()
        self._bg: asyncio.Task | None = None

    def start(self) -> None:
        self._bg = asyncio.create_task(self._housekeeping())

    def start_job(self, job_id: str, coro) -> None:
        self._jobs[job_id] = asyncio.create_task(coro)

    def forget_public(self, job_id: str) -> None:
        self._public.discard(job_id)

    async def mark_public(self, job_id: str) -> None:
        self._public.add(job_id)
        await self.store.set(f"public:{job_id}", b"1")

    async def cleanup_job(self, job_id: str) -> None:
        task = self._jobs.pop(job_id, None)
        if task is not None and not task.done():
            task.cancel()

    async def _housekeeping(self) -> None:
        while not self._closed:
            await asyncio.sleep(60)
            for job_id in list(self._jobs):
                if self._jobs[job_id].done():
                    await self.cleanup_job(job_id)
