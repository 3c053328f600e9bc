# expect: none
"""A server object hands its own method to the app as the lifespan (agentlightning's shape).

Starlette enters the lifespan at startup and exits it normally at shutdown; an exception
reaches its `yield` only when the process is going down, so the teardown need not be in
`finally`."""
import asyncio
from contextlib import asynccontextmanager

from fastapi import FastAPI


class Store:
    def close(self) -> None:
        pass


class InferenceServer:
    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.store: Store | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.app = FastAPI(lifespan=self._serve_life)

    @asynccontextmanager
    async def _serve_life(self, app):
        self.loop = asyncio.get_running_loop()
        self.store = Store()
        yield
        self.store.close()
        self.store = None
        self.loop = None


class AnnotatedLifespanOwner:
    def __init__(self) -> None:
        self.pool: Store | None = None

    @asynccontextmanager
    async def life(self, app: FastAPI):
        self.pool = Store()
        yield
        self.pool.close()
