# expect: none
# The coroutine's synchronous set-up awaits nothing; every await sits in a try whose
# catch-all handler logs the failure (also inside a `with` timeout), so no exception
# of the work is lost with the dropped task.
import asyncio
import logging

import anyio

log = logging.getLogger(__name__)


async def handle_async_request(server, execution_id, payload):
    async def _deliver():
        app = server.attached_app()
        session = app.sessions.get(execution_id) if app else None
        try:
            await session.send_request(payload)
            log.info("delivered %s", execution_id)
        except Exception as e:
            log.error("background delivery failed: %s", e)

    asyncio.create_task(_deliver())
    return {"status": "received"}


async def relay(session, method, params):
    async def _notify():
        with anyio.move_on_after(2):
            try:
                await session.send_notification(method, params)
            except Exception:
                pass

    asyncio.create_task(_notify())
