# expect: 24 CTX103
"""Queue-consumer engine: one long-lived worker task awaits the handler for every
request. The handler is a coroutine, but it is awaited directly, so it runs in the
worker's Context: the tenant it sets is still bound when the next request is handled
(and when that request's handler fails before its own set)."""
import asyncio
import contextvars
import logging

logger = logging.getLogger(__name__)

current_tenant: contextvars.ContextVar[str | None] = contextvars.ContextVar("current_tenant", default=None)


class Request:
    def __init__(self, tenant_id: str, prompt: str):
        self.tenant_id = tenant_id
        self.prompt = prompt
        self.future: asyncio.Future = asyncio.get_running_loop().create_future()


async def handle(req: Request, backend) -> str:
    logger.debug("handling request for %s", req.tenant_id)
    current_tenant.set(req.tenant_id)
    return await backend.acomplete(req.prompt)


async def worker(queue: asyncio.Queue, backend) -> None:
    while True:
        req = await queue.get()
        try:
            req.future.set_result(await handle(req, backend))
        except Exception as exc:  # report to the waiting caller, keep serving
            req.future.set_exception(exc)
        finally:
            queue.task_done()
