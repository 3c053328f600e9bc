# expect: 18 CTX108 the claiming pass awaits reserve() before it breaks into the try that pops the claim
"""Near miss of the claim loop: the `break` comes only after an `await` on the pass
that claimed the slot, so a cancellation at that `await` skips the `finally` below."""
import asyncio


class SlotTable:
    def __init__(self, engine) -> None:
        self.engine = engine
        self._owners: dict[str, asyncio.Future] = {}

    async def run_exclusive(self, job_id: str, payload: bytes) -> bytes:
        for _attempt in range(8):
            holder = self._owners.get(job_id)
            if holder is not None:
                await asyncio.shield(holder)
                continue
            self._owners[job_id] = asyncio.get_running_loop().create_future()
            await self.engine.reserve(job_id)
            break
        else:
            raise TimeoutError(job_id)
        try:
            return await self.engine.execute(job_id, payload)
        finally:
            fut = self._owners.pop(job_id, None)
            if fut is not None and not fut.done():
                fut.set_result(None)
