# expect: none
import asyncio


async def prefill(rid: str) -> str:
    await asyncio.sleep(0)
    return rid


async def run(rid: str) -> str:
    await asyncio.create_task(prefill(rid))
    return rid


def schedule(rid: str) -> asyncio.Task:
    return asyncio.ensure_future(prefill(rid))
