# expect: none
"""A janitor started in the service's task group wakes every few seconds and drops
every waiter past its deadline: each entry reaches its deadline, so one a cancelled
call leaves behind is dropped there."""
import asyncio


class WaiterTable:
    def __init__(self, conn, timeout: float = 30.0) -> None:
        self.conn = conn
        self.timeout = timeout
        self._stopped = False
        self._waiters: dict[str, tuple[float, asyncio.Future]] = {}

    async def run(self, tg: asyncio.TaskGroup) -> None:
        tg.create_task(self._janitor())

    async def call(self, call_id: str, payload: bytes) -> object:
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._waiters[call_id] = (loop.time() + self.timeout, fut)
        await self.conn.send(call_id, payload)
        result = await fut
        self._waiters.pop(call_id, None)
        return result

    async def _janitor(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._stopped:
            await asyncio.sleep(5)
            now = loop.time()
            for call_id, (deadline, _fut) in list(self._waiters.items()):
                if now >= deadline:
                    del self._waiters[call_id]
