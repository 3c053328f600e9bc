# expect: none
"""Background loops started once at startup (an ASGI lifespan, an aiohttp `on_startup`
signal, a module-level `asyncio.run`); the request path only starts them as a fallback,
guarded by the stored task (early return, or the `else:` of a truth test)."""
import asyncio
from contextlib import asynccontextmanager

from aiohttp import web
from fastapi import FastAPI


class Batcher:
    def __init__(self) -> None:
        self._pump: asyncio.Task | None = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(0.01)

    def ensure_pump(self) -> None:
        if self._pump is not None and not self._pump.done():
            return
        self._pump = asyncio.create_task(self._run())

    async def submit(self, request_id: str, prompt: str) -> str:
        self.ensure_pump()
        return prompt


batcher = Batcher()


@asynccontextmanager
async def lifespan(app: FastAPI):
    batcher.ensure_pump()
    yield


api = FastAPI(lifespan=lifespan)

_reaper: asyncio.Task | None = None


async def _reap_forever() -> None:
    while True:
        await asyncio.sleep(60)


def start_reaper() -> None:
    global _reaper
    if _reaper:
        pass
    else:
        _reaper = asyncio.create_task(_reap_forever())


async def handle_upload(request_id: str) -> None:
    start_reaper()


async def _on_startup(app: web.Application) -> None:
    start_reaper()


async def main() -> None:
    app = web.Application()
    app.on_startup.append(_on_startup)


if __name__ == "__main__":
    asyncio.run(main())
