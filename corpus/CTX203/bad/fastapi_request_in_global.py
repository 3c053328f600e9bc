# expect: 12 CTX203
"""Debug endpoint support that remembers the last request."""
from fastapi import FastAPI, Request

app = FastAPI()
_last_request: Request | None = None


@app.post("/v1/chat/completions")
async def chat(request: Request) -> dict:
    global _last_request
    _last_request = request
    body = await request.json()
    return {"model": body.get("model"), "choices": []}


@app.get("/debug/last")
async def last() -> dict:
    return {"headers": dict(_last_request.headers) if _last_request else {}}
