# expect: 20 CTX401
import asyncio
from typing import Dict


class RequestStream:
    def __init__(self, request_id: str):
        self.request_id = request_id
        self.queue: asyncio.Queue = asyncio.Queue()


class AsyncLLMEngine:
    def __init__(self, engine_core):
        self.engine_core = engine_core
        self.streams: Dict[str, RequestStream] = {}
        self.finished: Dict[str, bool] = {}

    async def generate(self, prompt: str, request_id: str):
        stream = RequestStream(request_id)
        self.streams[request_id] = stream
        self.engine_core.add_request(request_id, prompt)
        while True:
            out = await stream.queue.get()
            yield out
            if out.finished:
                break

    def process_outputs(self, outputs):
        for out in outputs:
            self.streams[out.request_id].queue.put_nowait(out)
