# expect: 36 CTX107
# expect: 37 CTX107
"""Next to good/awaits_self_handling_wrapper.py: the nested wrapper logs and re-raises,
and the second coroutine awaits other work outside the delegated call, so both tasks
can end with an exception nobody retrieves."""
import asyncio
import logging

log = logging.getLogger(__name__)


async def to_runnable(func, request):
    async def wired() -> None:
        try:
            await func(request)
        except Exception:
            log.exception("lazy listener failed")
            raise

    return await wired()


async def _guarded(func, request):
    try:
        await func(request)
    except Exception:
        log.exception("failed")


async def _deliver_then_ack(func, request):
    await _guarded(func, request)
    await request.ack()


def start(func, request) -> None:
    asyncio.ensure_future(to_runnable(func, request))
    asyncio.ensure_future(_deliver_then_ack(func, request))
