# expect: 8 CTX206
import asyncio


async def run_in_executor(func, *args):
    """Run `func` in the default executor: the caller's Context stays behind."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, func, *args)
