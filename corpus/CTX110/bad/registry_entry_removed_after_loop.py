# expect: 22 CTX110
"""Stream registry: each open stream is listed so an admin endpoint can cancel it."""
import asyncio

from fastapi import FastAPI
from sse_starlette.sse import EventSourceResponse


class StreamManager:
    def __init__(self) -> None:
        self.open_streams: dict[str, asyncio.Queue] = {}

    def cancel(self, request_id: str) -> None:
        q = self.open_streams.pop(request_id, None)
        if q is not None:
            q.put_nowait(None)

    async def events(self, request_id: str, engine):
        # a disconnect closes the generator at the yield: the queue stays listed,
        # and the engine keeps producing into it
        queue: asyncio.Queue = asyncio.Queue()
        self.open_streams[request_id] = queue
        async for item in engine.stream(request_id, queue):
            yield {"data": item}
        self.open_streams.pop(request_id, None)


manager = StreamManager()
app = FastAPI()


@app.get("/events/{request_id}")
async def subscribe(request_id: str):
    return EventSourceResponse(manager.events(request_id, app.state.engine))
