# expect: 32 CTX107
"""Kind: the constructor's name is shadowed by a local def, so the local is not an instance of
the module's self-handling class: the dropped task is reported."""
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
    def Good():
        return Bad()
    x = Good()
    asyncio.ensure_future(x.work())
