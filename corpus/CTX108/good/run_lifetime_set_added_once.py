# expect: none
"""The set of runs whose TTLs a refresher keeps alive: every event of a run adds the
run id if it is not there yet, and completion/cleanup (or the refresher, on expiry)
discards it. The entry belongs to the run, not to one `add_event` call. Reduced from
agno agno/os/event_streams/redis.py (add_event / _active_runs)."""
import asyncio


class RedisEventStream:
    def __init__(self, redis) -> None:
        self._redis = redis
        self._active_runs: set[str] = set()
        self._refresher: asyncio.Task | None = None

    async def add_event(self, run_id: str, event: str) -> int:
        if run_id not in self._active_runs:
            self._active_runs.add(run_id)
        count = await self._redis.incr(f"run:{run_id}:count")
        await self._redis.xadd(f"run:{run_id}", {"event": event})
        return int(count) - 1

    async def cleanup_run(self, run_id: str) -> None:
        self._active_runs.discard(run_id)
