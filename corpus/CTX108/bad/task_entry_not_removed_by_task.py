# expect: 17 CTX108
"""The entry holds a spawned task, but the task's coroutine never removes it (only the
finish path does): cancelled at the hand-off, the entry stays."""
import asyncio


class Worker:
    def __init__(self, bus):
        self.bus = bus
        self._job_tasks: dict[str, asyncio.Task] = {}

    async def _run_job(self, job_id: str, handler, message) -> None:
        await handler(message)

    async def handle_job_request(self, job_id: str, handler, message) -> None:
        task = asyncio.create_task(self._run_job(job_id, handler, message))
        self._job_tasks[job_id] = task
        await self.bus.notify("job_request", job_id, message)

    def finish(self, job_id: str) -> None:
        self._job_tasks.pop(job_id, None)
