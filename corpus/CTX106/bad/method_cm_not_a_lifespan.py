# expect: 25 CTX106
"""A method context manager that is NOT the app's lifespan: it wraps one request's work,
so an exception in the with-body skips putting the connection back."""
from contextlib import asynccontextmanager

from fastapi import FastAPI


class Pool:
    def get(self):
        return object()

    def put(self, conn) -> None:
        pass


class Service:
    def __init__(self, lifespan) -> None:
        self.pool = Pool()
        self.app = FastAPI(lifespan=lifespan)

    @asynccontextmanager
    async def connection(self, app: "Service"):
        conn = self.pool.get()
        yield conn
        self.pool.put(conn)
