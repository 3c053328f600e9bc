# expect: none
"""The handler claims the permit and owns its release: an idempotent release runs as
the response's background task, whether or not the generator ever starts."""
import asyncio

from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from starlette.background import BackgroundTask

app = FastAPI()
permits = asyncio.Semaphore(32)


class Permit:
    def __init__(self, sem: asyncio.Semaphore) -> None:
        self._sem = sem
        self._held = True

    def release(self) -> None:
        if self._held:
            self._held = False
            self._sem.release()


async def stream_tokens(engine, prompt: str, permit: Permit):
    try:
        async for token in engine.generate(prompt):
            yield token
    finally:
        permit.release()


@app.post("/generate")
async def generate(body: dict):
    await permits.acquire()
    permit = Permit(permits)
    return StreamingResponse(stream_tokens(app.state.engine, body["prompt"], permit),
                             background=BackgroundTask(permit.release))
