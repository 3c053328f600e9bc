# expect: none
import asyncio
from contextvars import copy_context


async def run_in_executor(func, *args):
    """Run `func` in the default executor inside a copy of the caller's Context."""
    ctx = copy_context()
    return await asyncio.get_running_loop().run_in_executor(None, ctx.run, func, *args)
