# expect: 13 CTX107
import asyncio


async def write_usage(tenant_id: str, tokens: int) -> None:
    await asyncio.sleep(0)


async def complete(tenant_id: str, prompt: str) -> str:
    out = prompt[::-1]
    # The usage record is fire-and-forget: nothing keeps the task alive, so it
    # can be collected before it writes.
    asyncio.create_task(write_usage(tenant_id, len(out)))
    return out
