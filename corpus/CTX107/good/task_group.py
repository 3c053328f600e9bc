# expect: none
import asyncio


async def fetch(shard: int) -> int:
    await asyncio.sleep(0)
    return shard


async def gather_shards(n: int) -> None:
    async with asyncio.TaskGroup() as tg:
        for i in range(n):
            tg.create_task(fetch(i))
