# expect: 22 CTX205
"""FastAPI app whose cache sweeper is started by whichever request comes first."""
import asyncio

from fastapi import FastAPI, Request

app = FastAPI()
_cache: dict[str, str] = {}
_sweeper: asyncio.Task | None = None


async def _sweep() -> None:
    while True:
        await asyncio.sleep(60)
        _cache.clear()


@app.post("/v1/embeddings")
async def embeddings(request: Request) -> dict:
    global _sweeper
    if _sweeper is None:
        _sweeper = asyncio.create_task(_sweep())
    body = await request.json()
    return {"data": [], "model": body.get("model")}
