# expect: 16 CTX108
"""The coroutine removes its own entry once the generation is done, so the entry is
meant to live for this call; the awaits in between (a rate limiter, the generation)
are cancellation points that skip that removal, even though neither is passed the id."""
import asyncio
import time


class GenerationServer:
    def __init__(self, model, limiter: asyncio.Semaphore) -> None:
        self.model = model
        self.limiter = limiter
        self._inflight: dict[str, float] = {}

    async def generate(self, request_id: str, prompt: str) -> str:
        self._inflight[request_id] = time.monotonic()
        await self.limiter.acquire()
        try:
            text = await self.model.generate(prompt)
        finally:
            self.limiter.release()
        self._inflight.pop(request_id, None)
        return text

    def stats(self) -> int:
        return len(self._inflight)
