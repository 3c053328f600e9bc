# expect: 11 CTX107
# expect: 12 CTX107
import asyncio


async def flush_kv(seq_id: int) -> None:
    await asyncio.sleep(0)


def on_finish(seq_id: int) -> None:
    asyncio.get_running_loop().create_task(flush_kv(seq_id))
    asyncio.ensure_future(flush_kv(seq_id))
