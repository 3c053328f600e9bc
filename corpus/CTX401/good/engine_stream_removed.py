# expect: none
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

    async def generate(self, prompt: str, request_id: str):
        stream = RequestStream(request_id)
        self.streams[request_id] = stream
        try:
            self.engine_core.add_request(request_id, prompt)
            while True:
                out = await stream.queue.get()
                yield out
                if out.finished:
                    break
        finally:
            # finished, aborted or cancelled: the stream goes away with the request
            self.streams.pop(request_id, None)

    def process_outputs(self, outputs):
        for out in outputs:
            stream = self.streams.get(out.request_id)
            if stream is not None:
                stream.queue.put_nowait(out)
