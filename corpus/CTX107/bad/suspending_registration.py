# expect: 16 CTX107
# The registration awaits a round trip: it can be suspended, cancelled at shutdown or
# fail after the caller has moved on, and nothing holds or awaits the task.
import asyncio

_registry: dict = {}


async def register(client, name, handler):
    await client.announce(name)
    _registry[name] = handler


def on_plugin_loaded(client, name, handler):
    loop = asyncio.get_running_loop()
    loop.create_task(register(client, name, handler))
