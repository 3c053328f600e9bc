# expect: 18 CTX108
"""JSON-RPC peer: the reply future is registered under the call's id and popped by the
call itself, but only after two awaits outside any `try`: a caller that times out
(`wait_for` cancels it) leaves the future behind."""
import asyncio
import itertools


class RpcPeer:
    def __init__(self, writer):
        self._writer = writer
        self._waiting: dict[int, asyncio.Future] = {}
        self._ids = itertools.count()

    async def call(self, method: str, params: dict):
        call_id = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self._waiting[call_id] = fut
        await self._writer.send({"id": call_id, "method": method, "params": params})
        result = await fut
        self._waiting.pop(call_id, None)
        return result
