# expect: 22 CTX205
# Near miss of the optional-credential exemption: `subscribe_user` takes the user it
# serves as a required argument and lazily starts the shared fan-out loop there, so
# the loop keeps that first user's contextvars for its whole life.
import asyncio
import contextvars
from typing import Optional

current_user = contextvars.ContextVar("current_user", default=None)


class Hub:
    def __init__(self) -> None:
        self._task: Optional[asyncio.Task] = None
        self._queue: asyncio.Queue = asyncio.Queue()
        self._subs: dict[str, asyncio.Queue] = {}

    async def subscribe_user(self, user: str) -> asyncio.Queue:
        current_user.set(user)
        q = self._subs.setdefault(user, asyncio.Queue())
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._fan_out())
        return q

    async def _fan_out(self) -> None:
        while True:
            item = await self._queue.get()
            for q in self._subs.values():
                q.put_nowait(item)
