# expect: none
"""A pool and a store built once per thread (each thread runs its own event loop):
every task on that loop is meant to share them; nothing of one request is stored."""
import threading
from contextlib import AsyncExitStack

from . import config
from .pool import ClientPool, open_store

_thread_local = threading.local()
STORE_STACK = threading.local()


async def get_client():
    pool = getattr(_thread_local, "pool", None)
    if pool is None:
        pool = ClientPool(size=1, address=config.SERVER_ADDRESS)
        _thread_local.pool = pool
    return await pool.get_client()


async def close_client():
    pool = getattr(_thread_local, "pool", None)
    if pool is not None:
        await pool.close()
        delattr(_thread_local, "pool")


async def get_store(timeout: float = 5.0):
    if not hasattr(STORE_STACK, "stack"):
        stack = AsyncExitStack()
        STORE_STACK.stack = stack
        STORE_STACK.store = await stack.enter_async_context(open_store(config.STORE_URL))
    return STORE_STACK.store
