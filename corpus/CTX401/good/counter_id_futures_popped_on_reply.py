# expect: none
import asyncio
import itertools
import json


class WorkerClient:
    def __init__(self, writer: asyncio.StreamWriter):
        self._writer = writer
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}

    async def call(self, method: str, params: dict):
        call_id = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self._pending[call_id] = fut
        try:
            self._writer.write(json.dumps({"id": call_id, "method": method, "params": params}).encode() + b"\n")
            await self._writer.drain()
            return await fut
        finally:
            self._pending.pop(call_id, None)

    def on_reply(self, line: bytes) -> None:
        msg = json.loads(line)
        fut = self._pending.get(msg["id"])
        if fut is not None and not fut.done():
            fut.set_result(msg.get("result"))
