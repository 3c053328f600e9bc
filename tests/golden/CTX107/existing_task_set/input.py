import asyncio

_pending_tasks = set()


class Flusher:
    def schedule(self, batch):
        loop = asyncio.get_running_loop()
        loop.create_task(self.flush(batch))

    async def flush(self, batch):
        await asyncio.sleep(0)
