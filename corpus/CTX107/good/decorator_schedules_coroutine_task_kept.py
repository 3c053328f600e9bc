# expect: none
"""The same decorator keeps every task it schedules in a module-level set until the
task is done, so the handler dropping the returned task loses nothing."""
import asyncio
import functools

from aiohttp import ClientSession, web

_pending: set = set()


def fire_and_forget(fn):
    @functools.wraps(fn)
    def schedule(*args, **kwargs):
        task = asyncio.get_running_loop().create_task(fn(*args, **kwargs))
        _pending.add(task)
        task.add_done_callback(_pending.discard)
        return task
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
