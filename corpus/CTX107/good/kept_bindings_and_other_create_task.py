# expect: none
"""A bound task that is read, a frame that outlives the task, and `create_task` methods
that are not an event loop's."""
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


async def serve(server) -> None:
    # the frame holds the task for as long as the server runs
    heartbeat = asyncio.create_task(worker())
    await server.serve_forever()


def start(registry: set) -> asyncio.Task:
    t = asyncio.create_task(worker())
    registry.add(t)
    t.add_done_callback(registry.discard)
    return t


async def fan_out() -> None:
    async with asyncio.TaskGroup() as group:
        group.create_task(worker())
