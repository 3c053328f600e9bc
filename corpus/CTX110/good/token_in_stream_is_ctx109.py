# expect: 14 CTX109
"""A ContextVar token set by a stream and reset after its yields is CTX109's finding."""
from contextvars import ContextVar

from fastapi import FastAPI
from fastapi.responses import StreamingResponse

app = FastAPI()
current_tenant: ContextVar[str] = ContextVar("current_tenant")


async def token_events(engine, tenant: str, prompt: str):
    # the reset can run in another Context (CTX109), not a stream-resource leak
    token = current_tenant.set(tenant)
    try:
        async for item in engine.generate(prompt):
            yield item
    finally:
        current_tenant.reset(token)


@app.post("/v1/stream")
async def stream(body: dict):
    return StreamingResponse(token_events(app.state.engine, body["tenant"], body["prompt"]))
