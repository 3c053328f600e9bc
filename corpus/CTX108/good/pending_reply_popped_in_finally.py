# expect: none
"""Fixed twin of bad/pending_reply_popped_after_send.py: the send and the wait are in
a `try` whose `finally` pops the future on every way out."""
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
        try:
            await self._writer.send({"id": call_id, "method": method, "params": params})
            return await fut
        finally:
            self._waiting.pop(call_id, None)
