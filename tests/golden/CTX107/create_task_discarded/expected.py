"""Turn handler."""
import asyncio
import json

_background_tasks: set = set()


async def _append_call_log(path, record):
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")


async def handle_turn(call_id, text, task):
    reply = text.upper()
    task_1 = asyncio.create_task(_append_call_log(f"/tmp/{call_id}.log", {"in": text, "out": reply}))  # fire and forget
    _background_tasks.add(task_1)
    task_1.add_done_callback(_background_tasks.discard)
    return reply, task
