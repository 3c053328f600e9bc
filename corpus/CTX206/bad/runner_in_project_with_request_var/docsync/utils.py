# expect: 11 CTX206
"""Near miss of khoj's content sync: here the request middleware binds the user in a
ContextVar (`context.py`), which the indexing step reads for its audit log; the helper
runs it in a bare worker thread, where that ContextVar holds its default."""
import asyncio
from typing import Any, Callable


async def run_in_executor(func: Callable[..., Any], *args: Any) -> Any:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, func, *args)
