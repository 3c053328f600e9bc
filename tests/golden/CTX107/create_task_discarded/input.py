"""Turn handler."""
import asyncio
import json


async def _append_call_log(path, record):
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")


async def handle_turn(call_id, text, task):
    reply = text.upper()
    asyncio.create_task(_append_call_log(f"/tmp/{call_id}.log", {"in": text, "out": reply}))  # fire and forget
    return reply, task
