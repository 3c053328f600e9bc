# expect: none
"""The entry is the spawned task itself, and that task's coroutine pops its own entry
in `finally`: whenever it ends (done, failed or cancelled) the entry goes, so a
cancellation of the spawner at the later await leaves nothing behind.
Reduced from pipecat-ai pipecat/workers/base_worker.py (_handle_job_request / _run_job_handler)."""
import asyncio


class Worker:
    def __init__(self, bus):
        self.bus = bus
        self._job_tasks: dict[str, asyncio.Task] = {}

    async def handle_job_request(self, job_id: str, handler, message) -> None:
        task = asyncio.create_task(self._run_job(job_id, handler, message))
        self._job_tasks[job_id] = task
        await self.bus.notify("job_request", job_id, message)

    async def _run_job(self, job_id: str, handler, message) -> None:
        try:
            await handler(message)
        except asyncio.CancelledError:
            pass
        finally:
            self._job_tasks.pop(job_id, None)
