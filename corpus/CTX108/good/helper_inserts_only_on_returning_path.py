# expect: none
"""The helper records a refused run only on the path where it returns -1, and the
caller returns at once on any non-None result: the await that hands the run on is on
the other (unfenced) path, never after the insertion. Reduced from agno
agno/os/event_streams/redis.py (add_event / _fenced_add_event / _log_fence_refusal)."""


class RedisEventStream:
    def __init__(self, redis) -> None:
        self._redis = redis
        self._refused_runs: set[str] = set()

    def _note_refusal(self, run_id: str) -> None:
        self._refused_runs.add(run_id)

    async def _fenced_add(self, run_id: str, event: str, generation: int) -> int | None:
        appended = await self._redis.fenced_xadd(run_id, event, generation)
        if appended is None:
            return None  # scripting unavailable: the caller falls back
        if not appended:
            self._note_refusal(run_id)
            return -1
        return int(appended)

    async def add_event(self, run_id: str, event: str, generation: int | None = None) -> int:
        if generation is not None:
            fenced = await self._fenced_add(run_id, event, generation)
            if fenced is not None:
                return fenced
        count = await self._redis.xadd(run_id, event)
        return int(count)

    async def cleanup_run(self, run_id: str) -> None:
        self._refused_runs.discard(run_id)
