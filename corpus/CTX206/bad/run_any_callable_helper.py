# expect: 12 CTX206
"""Pipeline utility: run a blocking step without blocking the event loop."""
import asyncio
import functools
from typing import Any, Callable


async def run_blocking(step: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Every pipeline node calls this; their spans end up in separate traces."""
    loop = asyncio.get_running_loop()
    call = functools.partial(step, *args, **kwargs)
    return await loop.run_in_executor(None, call)
