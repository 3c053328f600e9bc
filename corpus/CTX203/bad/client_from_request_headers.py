# expect: 14 CTX203
"""Proxy that builds the upstream client from the caller's API key."""
from fastapi import FastAPI, Request
from openai import AsyncOpenAI

app = FastAPI()
_upstream = None


@app.post("/proxy/completions")
async def proxy(request: Request) -> dict:
    global _upstream
    if _upstream is None:
        _upstream = AsyncOpenAI(api_key=request.headers["authorization"].removeprefix("Bearer "))
    body = await request.json()
    resp = await _upstream.completions.create(**body)
    return resp.model_dump()
