# expect: none
"""The endpoint keeps the heartbeat task the helpers return and cancels and awaits it
when the socket closes."""
import asyncio
import contextlib

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
    beat = start_heartbeat(ws)
    try:
        async for msg in ws.iter_json():
            await ws.send_json({"echo": msg})
    finally:
        beat.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await beat
