# expect: none
"""The slot and the upstream response are released on every way out of the stream."""
import asyncio

import httpx
from fastapi import FastAPI
from fastapi.responses import StreamingResponse

app = FastAPI()
kv_slots = asyncio.Semaphore(16)
client = httpx.AsyncClient()


async def token_events(engine, prompt: str):
    await kv_slots.acquire()
    try:
        async for token in engine.generate(prompt):
            yield f"data: {token}\n\n"
    finally:
        kv_slots.release()


async def relay(payload: dict):
    upstream = await client.send(client.build_request("POST", "/generate", json=payload), stream=True)
    try:
        async for chunk in upstream.aiter_bytes():
            yield chunk
    finally:
        await upstream.aclose()


@app.post("/v1/stream")
async def stream(body: dict):
    return StreamingResponse(token_events(app.state.engine, body["prompt"]))


@app.post("/v1/relay")
async def relay_route(body: dict):
    return StreamingResponse(relay(body))
