# expect: none
"""Fixed twin of bad/slot_passed_to_engine_released_after_loop.py: the slot goes back
to the pool in `finally`, which `aclose()` at the `yield` also runs."""
from fastapi import APIRouter
from fastapi.responses import StreamingResponse

router = APIRouter()


class CompletionStreamer:
    def __init__(self, engine, kv_pool):
        self.engine = engine
        self.kv_pool = kv_pool

    async def sse(self, prompt: str, max_tokens: int):
        budget = min(max_tokens, 4096)
        kv = await self.kv_pool.acquire()
        try:
            async for piece in self.engine.generate(prompt, kv_slot=kv, max_tokens=budget):
                yield f"data: {piece}\n\n"
        finally:
            self.kv_pool.release(kv)


streamer = CompletionStreamer(engine=None, kv_pool=None)


@router.post("/v1/completions/stream")
async def complete(body: dict):
    return StreamingResponse(streamer.sse(body["prompt"], body.get("max_tokens", 256)),
                             media_type="text/event-stream")
