# expect: none
"""slack-bolt's lazy listener shape: the coroutine sets up synchronously, then awaits a
nested wrapper whose whole awaited work sits in `try/except Exception`: the error is
caught one frame down, so no failure is lost with the task reference."""
import asyncio
import inspect
import logging

log = logging.getLogger(__name__)


async def to_runnable(func, request):
    arg_names = inspect.signature(func).parameters

    async def wired() -> None:
        try:
            await func(**{n: request for n in arg_names})
        except Exception as e:
            log.error("lazy listener failed: %s", e)

    return await wired()


async def _deliver(func, request):
    await to_runnable(func, request)


def start(func, request) -> None:
    asyncio.ensure_future(to_runnable(func, request))
    asyncio.ensure_future(_deliver(func, request))
