# expect: none
# A messaging client's `connect()` takes the user name and password as optional
# options and starts its connection-lifetime loops. The `user` option configures the
# client; no request is being served while connect runs, so the loops carry no
# request's contextvars.
import asyncio
from typing import Optional


class Client:
    def __init__(self) -> None:
        self._reading_task: Optional[asyncio.Task] = None
        self._pending: asyncio.Queue = asyncio.Queue()

    async def connect(self, servers: list[str], user: Optional[str] = None,
                      password: Optional[str] = None) -> None:
        self._servers = servers
        self._auth = (user, password)
        await self._process_connect_init()

    async def _process_connect_init(self) -> None:
        self._reading_task = asyncio.get_running_loop().create_task(self._read_loop())

    async def _read_loop(self) -> None:
        while True:
            msg = await self._pending.get()
            if msg is None:
                break

    async def close(self) -> None:
        if self._reading_task is not None:
            self._reading_task.cancel()
