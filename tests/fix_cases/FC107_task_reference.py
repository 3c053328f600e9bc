# fix: kept
# fix case (keep_task_reference): a dropped task is kept in a module set until done
import asyncio

done: list = []


async def job(n: int) -> None:
    await asyncio.sleep(0)
    done.append(n)


async def submit(n: int) -> None:
    asyncio.create_task(job(n))
    await asyncio.sleep(0.01)


def behaviour():
    done.clear()
    asyncio.run(submit(1))
    return list(done)
