# expect: 15 CTX110
"""SSE endpoint: a KV slot per stream, released after the token loop."""
import asyncio

from fastapi import FastAPI
from fastapi.responses import StreamingResponse

app = FastAPI()
kv_slots = asyncio.Semaphore(16)


async def token_events(engine, prompt: str):
    # a client that disconnects closes this generator at the yield: the slot is never
    # given back, and after 16 disconnects every request waits forever
    await kv_slots.acquire()
    async for token in engine.generate(prompt):
        yield f"data: {token}\n\n"
    kv_slots.release()


@app.post("/v1/stream")
async def stream(body: dict):
    return StreamingResponse(token_events(app.state.engine, body["prompt"]), media_type="text/event-stream")
