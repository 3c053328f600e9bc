# expect: none
"""The exceptional path discards the connection, the normal path returns it."""
from contextlib import asynccontextmanager
from typing import AsyncIterator


class Pool:
    def __init__(self) -> None:
        self._idle: list[object] = []

    async def get(self) -> object:
        return self._idle.pop() if self._idle else object()

    def put(self, conn: object) -> None:
        self._idle.append(conn)

    def remove(self, conn: object) -> None:
        self._idle = [c for c in self._idle if c is not conn]

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[object]:
        conn = await self.get()
        try:
            yield conn
        except BaseException:
            self.remove(conn)
            raise
        else:
            self.put(conn)
