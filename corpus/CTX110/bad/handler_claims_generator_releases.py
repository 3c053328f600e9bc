# expect: 24 CTX110
"""Admission control: the handler takes a permit, the stream gives it back."""
import asyncio

from fastapi import FastAPI
from fastapi.responses import StreamingResponse

app = FastAPI()
permits = asyncio.Semaphore(32)


async def stream_tokens(engine, prompt: str, sem: asyncio.Semaphore):
    try:
        async for token in engine.generate(prompt):
            yield token
    finally:
        sem.release()


@app.post("/generate")
async def generate(body: dict):
    # a client gone before the body starts: the response fails to start, the
    # generator never runs, and its `finally` never gives the permit back
    await permits.acquire()
    return StreamingResponse(stream_tokens(app.state.engine, body["prompt"], permits))
