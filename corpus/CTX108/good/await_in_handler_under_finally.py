# expect: none
"""The waiter is removed in `finally`, which also covers the awaits in the handlers."""
import asyncio
import itertools


class Dispatcher:
    def __init__(self, transport) -> None:
        self._transport = transport
        self._pending: dict[int, asyncio.Future] = {}
        self._ids = itertools.count()

    async def request(self, method: str, timeout: float) -> dict:
        request_id = next(self._ids)
        waiter = asyncio.get_running_loop().create_future()
        self._pending[request_id] = waiter
        try:
            await self._transport.send({"id": request_id, "method": method})
            return await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            await self._transport.send({"cancel": request_id})
            raise
        finally:
            self._pending.pop(request_id, None)
