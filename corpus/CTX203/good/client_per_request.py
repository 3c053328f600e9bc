# expect: none
"""Proxy that builds a client per request and closes it; the global holds the shared base URL only."""
from fastapi import FastAPI, Request
from openai import AsyncOpenAI

app = FastAPI()
UPSTREAM_URL = "https://api.example.com/v1"


@app.post("/proxy/completions")
async def proxy(request: Request) -> dict:
    key = request.headers["authorization"].removeprefix("Bearer ")
    async with AsyncOpenAI(api_key=key, base_url=UPSTREAM_URL) as client:
        body = await request.json()
        resp = await client.completions.create(**body)
    return resp.model_dump()
