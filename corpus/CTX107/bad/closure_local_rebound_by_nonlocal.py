# expect: 37 CTX107
"""Kind: the closure's local instance is rebound by a nested def through `nonlocal` to a class
whose coroutine raises: the local's value is not known, and the dropped task is reported."""
import asyncio
import logging

log = logging.getLogger(__name__)


class Good:
    async def work(self):
        try:
            await asyncio.sleep(1)
        except Exception as ex:
            log.debug("x %s", ex)


class Bad:
    async def work(self):
        await asyncio.sleep(1)
        raise RuntimeError("boom")


def make():
    return Bad()


def setup():
    x = Good()

    def swap():
        nonlocal x
        x = Bad()

    class L:
        def m(self):
            asyncio.ensure_future(x.work())

    return L(), swap
