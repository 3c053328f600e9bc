# expect: none
"""A run's fence generation is recorded by a helper that first reads the current
record and only moves it forward; the record lives for the run and `cleanup_run`
pops it. `complete_run` updates that run-lifetime record, it does not register
state of its own call, so a cancellation at the publish leaves nothing wrong.
Reduced from agno agno/os/event_streams/in_memory.py (_generation_stale / complete_run)."""


class InMemoryEventStream:
    def __init__(self, subscribers) -> None:
        self._subscribers = subscribers
        self._generations: dict = {}

    def _stale(self, run_id: str, generation: int | None) -> bool:
        if generation is None:
            return False
        current = self._generations.get(run_id)
        if current is None or generation > current:
            self._generations[run_id] = generation
            return False
        return generation < current

    async def complete_run(self, run_id: str, generation: int | None = None) -> None:
        if self._stale(run_id, generation):
            return
        await self._subscribers.complete(run_id)

    async def cleanup_run(self, run_id: str) -> None:
        self._generations.pop(run_id, None)
