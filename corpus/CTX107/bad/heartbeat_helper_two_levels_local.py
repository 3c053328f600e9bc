# expect: 28 CTX107
"""A websocket endpoint starts a heartbeat through two helpers: the inner one binds
the task to a local and returns it, the outer one returns what the inner gives. The
endpoint drops it: a heartbeat that fails is never noticed, and the loop holds the task
only weakly."""
import asyncio

from starlette.websockets import WebSocket


async def _beat(ws: WebSocket, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        await ws.send_json({"type": "ping"})


def _start(coro, label):
    handle = asyncio.create_task(coro, name=label)
    return handle


def start_heartbeat(ws: WebSocket):
    return _start(_beat(ws, 15.0), "heartbeat")


async def stream(ws: WebSocket):
    await ws.accept()
    start_heartbeat(ws)
    async for msg in ws.iter_json():
        await ws.send_json({"echo": msg})
