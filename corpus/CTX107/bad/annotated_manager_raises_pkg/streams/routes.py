# expect: 13 CTX107
"""Next to good/annotated_manager_pkg: the annotated manager's `start_stream` lets its
errors escape into a task nobody holds."""
import asyncio

from streams.manager import StreamManager


async def run_websocket(websocket, run_id, manager: StreamManager):
    while True:
        message = await websocket.receive_json()
        if message.get("type") == "start":
            asyncio.create_task(manager.start_stream(run_id, message["task"]))
