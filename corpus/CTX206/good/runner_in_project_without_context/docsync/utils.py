# expect: none
"""khoj's content sync: a generic helper runs a blocking indexing step off the event
loop. Nothing in this project sets a ContextVar or opens a span, so the worker thread
has no caller context to miss; every argument is passed explicitly."""
import asyncio
from typing import Any, Callable


async def run_in_executor(func: Callable[..., Any], *args: Any) -> Any:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, func, *args)
