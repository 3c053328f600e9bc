# expect: none
# A task cancelled as it is made never runs its coroutine: nothing is lost with it.
import asyncio


def discard_pending(coro):
    asyncio.ensure_future(coro).cancel()


def drop_stale(loop: asyncio.AbstractEventLoop, coro):
    loop.create_task(coro).cancel()
