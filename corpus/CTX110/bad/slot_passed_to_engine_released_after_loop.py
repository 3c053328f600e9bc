# expect: 18 CTX110
"""Chat service whose streaming method takes a KV slot from a pool object (built
elsewhere), hands the slot to the engine for the generation and gives it back after
the loop: a client that disconnects closes the generator at the `yield` first."""
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
        async for piece in self.engine.generate(prompt, kv_slot=kv, max_tokens=budget):
            yield f"data: {piece}\n\n"
        self.kv_pool.release(kv)


streamer = CompletionStreamer(engine=None, kv_pool=None)


@router.post("/v1/completions/stream")
async def complete(body: dict):
    return StreamingResponse(streamer.sse(body["prompt"], body.get("max_tokens", 256)),
                             media_type="text/event-stream")
