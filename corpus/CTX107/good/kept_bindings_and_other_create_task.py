# expect: none
"""A bound task that is read, and `create_task` methods that are not an event loop's."""
import asyncio


async def worker() -> None:
    await asyncio.sleep(0)


class TodoClient:
    """A REST client whose `create_task` files a to-do item (not an asyncio task)."""

    def create_task(self, title: str) -> dict:
        return {"title": title}


todo = TodoClient()


def file_ticket(title: str) -> None:
    todo.create_task(title)


def start(registry: set) -> asyncio.Task:
    t = asyncio.create_task(worker())
    registry.add(t)
    t.add_done_callback(registry.discard)
    return t


async def fan_out() -> None:
    async with asyncio.TaskGroup() as group:
        group.create_task(worker())
