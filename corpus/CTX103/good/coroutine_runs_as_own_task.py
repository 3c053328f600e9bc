# expect: none
"""Coroutines that set a ContextVar and never reset it, but each runs as its own
asyncio Task (a copy of the Context that dies with the task): spawned with
create_task/gather/TaskGroup, or a route handler the ASGI framework runs per request.
The walrus form resets in `finally`."""
import asyncio
from contextvars import ContextVar

from fastapi import FastAPI

app = FastAPI()
tenant: ContextVar[str | None] = ContextVar("tenant", default=None)
_inflight: set[asyncio.Task] = set()


async def serve_one(req, backend):
    tenant.set(req.tenant_id)
    return await backend.acomplete(req.prompt)


async def refresh_quota(tenant_id, store):
    tenant.set(tenant_id)
    await store.refresh()


async def dispatcher(queue: asyncio.Queue, backend, store):
    while True:
        req = await queue.get()
        task = asyncio.create_task(serve_one(req, backend))
        _inflight.add(task)
        task.add_done_callback(_inflight.discard)
        await asyncio.gather(*(refresh_quota(t, store) for t in req.tenants))


@app.post("/v1/completions")
async def completions(body: dict):
    tenant.set(body["tenant"])
    return {"tenant": tenant.get()}


def run_sync(req, backend):
    if (token := tenant.set(req.tenant_id)):
        try:
            return backend.run(req)
        finally:
            tenant.reset(token)

