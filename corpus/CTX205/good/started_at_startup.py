# expect: none
"""The sweeper is started by the lifespan hook, outside any request."""
import asyncio
from contextlib import asynccontextmanager

from fastapi import FastAPI

_cache: dict[str, str] = {}


async def _sweep() -> None:
    while True:
        await asyncio.sleep(60)
        _cache.clear()


@asynccontextmanager
async def lifespan(app: FastAPI):
    sweeper = asyncio.create_task(_sweep())
    try:
        yield
    finally:
        sweeper.cancel()


app = FastAPI(lifespan=lifespan)
