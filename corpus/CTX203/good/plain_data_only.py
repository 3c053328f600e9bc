# expect: none
"""Keeps only request-independent counters at module level."""
from fastapi import FastAPI, Request

app = FastAPI()
_requests_served = 0


@app.post("/v1/chat/completions")
async def chat(request: Request) -> dict:
    global _requests_served
    _requests_served += 1
    body = await request.json()
    return {"model": body.get("model"), "choices": []}
