# expect: none
"""autogenstudio's websocket route: the manager arrives as a parameter annotated with
the project's `StreamManager`, whose `start_stream` catches every error of its awaited
work, so the dropped task loses no failure."""
import asyncio

from streams.manager import StreamManager


async def run_websocket(websocket, run_id, manager: StreamManager):
    while True:
        message = await websocket.receive_json()
        if message.get("type") == "start":
            asyncio.create_task(manager.start_stream(run_id, message["task"]))
