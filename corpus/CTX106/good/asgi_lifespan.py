# expect: none
"""A FastAPI lifespan: the server exits it normally at shutdown."""
from contextlib import asynccontextmanager

from fastapi import FastAPI


class ModelManager:
    def start(self) -> None: ...
    def shutdown(self) -> None: ...


manager = ModelManager()


@asynccontextmanager
async def lifespan(app: FastAPI):
    manager.start()
    yield
    manager.shutdown()


@asynccontextmanager
async def warm_pool(_app):
    manager.start()
    yield
    manager.shutdown()


app = FastAPI(lifespan=lifespan)
second = FastAPI(lifespan=warm_pool)
