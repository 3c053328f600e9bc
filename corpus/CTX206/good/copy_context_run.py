# expect: none
"""Generic helpers that run any callable in an executor inside a copy of the caller's Context."""
import asyncio
import contextvars
import functools
from concurrent.futures import ThreadPoolExecutor

_pool = ThreadPoolExecutor(max_workers=4)


async def run_blocking(fn, *args, **kwargs):
    loop = asyncio.get_running_loop()
    ctx = contextvars.copy_context()
    return await loop.run_in_executor(None, functools.partial(ctx.run, fn, *args, **kwargs))


def submit(fn, *args):
    return _pool.submit(contextvars.copy_context().run, fn, *args)
