# expect: 16 CTX107
# Reported in review of stop 22's exemptions: ensure_future(t) of a task that nothing else keeps.
# (A real bug the first version of the exemption silenced.)
import asyncio
import logging

log = logging.getLogger(__name__)


async def job() -> None:
    await asyncio.sleep(1)


def schedule() -> None:
    task = asyncio.get_running_loop().create_task(job())
    asyncio.ensure_future(task).add_done_callback(lambda _: log.info("done"))
