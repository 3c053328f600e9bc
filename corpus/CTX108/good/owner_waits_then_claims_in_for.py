# expect: none
"""A bounded retry loop: a pass that finds the slot taken waits for its owner (the
`await` after the `if`); the pass that claims the slot leaves the loop with `break`,
and the work that follows runs in a `try` whose `finally` releases the claim. No
`await` runs between the claim and that `try`."""
import asyncio


class SlotTable:
    def __init__(self, engine) -> None:
        self.engine = engine
        self._owners: dict[str, asyncio.Future] = {}

    async def run_exclusive(self, job_id: str, payload: bytes) -> bytes:
        for _attempt in range(8):
            holder = self._owners.get(job_id)
            if holder is None:
                self._owners[job_id] = asyncio.get_running_loop().create_future()
                break
            await asyncio.shield(holder)
        else:
            raise TimeoutError(job_id)
        try:
            return await self.engine.execute(job_id, payload)
        finally:
            fut = self._owners.pop(job_id, None)
            if fut is not None and not fut.done():
                fut.set_result(None)
