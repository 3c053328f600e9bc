# expect: none
"""Fan-out comprehensions whose tasks are kept: assigned and awaited, gathered, or
created by a TaskGroup (which holds them strongly)."""
import asyncio


async def warm_adapters(engine, adapter_ids: list[str]) -> None:
    tasks = [asyncio.create_task(engine.load_adapter(a)) for a in adapter_ids]
    await asyncio.wait(tasks)


async def embed_all(model, chunks) -> list:
    return await asyncio.gather(*[asyncio.create_task(model.embed(c)) for c in chunks])


async def notify_all(hooks, event) -> None:
    async with asyncio.TaskGroup() as tg:
        [tg.create_task(h(event)) for h in hooks]
