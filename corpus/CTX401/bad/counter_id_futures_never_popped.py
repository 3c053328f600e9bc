# expect: 13 CTX401 per-call future parked in a module-level dict; the reply handler reads it but nothing ever removes it
import asyncio
import itertools
import json

_ids = itertools.count()
_pending: dict[int, asyncio.Future] = {}


async def call_worker(writer: asyncio.StreamWriter, method: str, params: dict):
    call_id = next(_ids)
    fut = asyncio.get_running_loop().create_future()
    _pending[call_id] = fut
    writer.write(json.dumps({"id": call_id, "method": method, "params": params}).encode() + b"\n")
    await writer.drain()
    return await fut


def on_reply(line: bytes) -> None:
    msg = json.loads(line)
    fut = _pending.get(msg["id"])
    if fut is not None and not fut.done():
        fut.set_result(msg.get("result"))
