# expect: 28 CTX107
"""An aiohttp handler calls a coroutine function decorated with a project decorator
that wraps it (`functools.wraps`) and schedules each call on the loop; the wrapper
returns the task and the handler drops it, so a failed webhook delivery is never seen
and shutdown cannot wait for it."""
import asyncio
import functools

from aiohttp import ClientSession, web


def fire_and_forget(fn):
    @functools.wraps(fn)
    def schedule(*args, **kwargs):
        return asyncio.get_running_loop().create_task(fn(*args, **kwargs))
    return schedule


@fire_and_forget
async def deliver_webhook(url: str, payload: dict) -> None:
    async with ClientSession() as http:
        resp = await http.post(url, json=payload)
        resp.raise_for_status()


async def create_order(request: web.Request) -> web.Response:
    order = await request.json()
    deliver_webhook(request.app["hook_url"], order)
    return web.json_response({"ok": True})
