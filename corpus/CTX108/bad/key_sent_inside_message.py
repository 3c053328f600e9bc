# expect: 18 CTX108
"""The id travels inside the message that the awaited send hands to the server, so
the send is the hand-off: cancelled there, the server never answers and the reader
never pops the future (the key reaches the call through a local built from it)."""
import asyncio
import json
import uuid


class RpcConnectionManager:
    def __init__(self, ws) -> None:
        self.ws = ws
        self._pending: dict[str, asyncio.Future] = {}

    async def call(self, method: str, params: dict) -> dict:
        request_id = uuid.uuid4().hex
        msg = json.dumps({"id": request_id, "method": method, "params": params})
        self._pending[request_id] = asyncio.get_running_loop().create_future()
        await self.ws.send(msg)
        return await self._pending[request_id]

    def on_message(self, raw: str) -> None:
        data = json.loads(raw)
        fut = self._pending.pop(data["id"], None)
        if fut is not None and not fut.done():
            fut.set_result(data)
