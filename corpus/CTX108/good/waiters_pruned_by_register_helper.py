# expect: none
"""Each call registers its waiter through `_register`, which first runs the pruner:
the pruner collects the waiters older than the limit (rows of key and waiter) and
removes each through `_discard`. A cancellation while the call waits leaves its
waiter only until a later registration prunes it.
Prune-on-use shape of litellm CodeInterpreterInterception (`_prune_expired_cache`)."""
import asyncio
import time

LIMIT_S = 60.0


class ReplyBoard:
    def __init__(self) -> None:
        self._waiting: dict[str, tuple[float, asyncio.Future]] = {}

    def _discard(self, call_id: str) -> None:
        self._waiting.pop(call_id, None)

    def _prune(self) -> None:
        now = time.monotonic()
        old = [(cid, fut) for cid, (born, fut) in self._waiting.items() if now - born >= LIMIT_S]
        for cid, fut in old:
            self._discard(cid)
            fut.cancel()

    def _register(self, call_id: str) -> asyncio.Future:
        self._prune()
        fut = asyncio.get_running_loop().create_future()
        self._waiting[call_id] = (time.monotonic(), fut)
        return fut

    async def ask(self, call_id: str, channel) -> object:
        fut = self._register(call_id)
        await channel.send(call_id)
        return await fut
