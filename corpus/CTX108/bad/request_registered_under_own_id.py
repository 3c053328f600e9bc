# expect: 20 CTX108
"""The request object itself is registered under its own id, then handed to the
scheduler: the object was passed in, but it is the request this call registers (the
key is read off it), not data stored for later calls."""
import asyncio


class Request:
    def __init__(self, request_id: str, prompt: str) -> None:
        self.request_id = request_id
        self.prompt = prompt


class Engine:
    def __init__(self, scheduler) -> None:
        self.scheduler = scheduler
        self.running: dict[str, Request] = {}

    async def add(self, req: Request) -> None:
        self.running[req.request_id] = req
        await self.scheduler.enqueue(req)

    def on_finished(self, request_id: str) -> None:
        self.running.pop(request_id, None)
