# expect: none
"""Context managers own the release: `async with` on the semaphore and the upstream stream."""
import asyncio

import aiohttp
import httpx
from aiohttp import web
from fastapi import FastAPI
from fastapi.responses import StreamingResponse

app = FastAPI()
kv_slots = asyncio.Semaphore(16)
client = httpx.AsyncClient()
session = aiohttp.ClientSession()


async def relay(payload: dict):
    async with kv_slots:
        async with client.stream("POST", "/generate", json=payload) as upstream:
            async for chunk in upstream.aiter_bytes():
                yield chunk


@app.post("/v1/relay")
async def relay_route(body: dict):
    return StreamingResponse(relay(body))


async def aiohttp_relay(request: web.Request) -> web.StreamResponse:
    out = web.StreamResponse()
    await out.prepare(request)
    async with session.post("http://backend:8000/generate", json=await request.json()) as upstream:
        async for line in upstream.content:
            await out.write(line)
    await out.write_eof()
    return out
