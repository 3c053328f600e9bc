# expect: 20 CTX108 every job is cleaned only once, at stop(): no periodic sweep reaps the marker
"""Near miss of the swept job service: the loop that cleans every job (and its
marker) runs once, in `stop()`; while the service runs, a cancellation during the
marker's remote write leaves the marker behind."""
import asyncio


class JobService:
    def __init__(self, store) -> None:
        self.store = store
        self._jobs: dict[str, asyncio.Task] = {}
        self._public: set[str] = set()

    def start_job(self, job_id: str, coro) -> None:
        self._jobs[job_id] = asyncio.create_task(coro)

    async def mark_public(self, job_id: str) -> None:
        if job_id not in self._jobs:
            raise KeyError(job_id)
        self._public.add(job_id)
        await self.store.set(f"public:{job_id}", b"1")

    async def cleanup_job(self, job_id: str) -> None:
        task = self._jobs.pop(job_id, None)
        if task is not None and not task.done():
            task.cancel()
        self._public.discard(job_id)

    async def stop(self) -> None:
        for job_id in list(self._jobs):
            await self.cleanup_job(job_id)
