# expect: none
"""A websocket receive loop keeps a jitter buffer per stream: it creates the buffer when
a stream's first audio arrives and pops it when that stream's end message arrives, in
another pass of the loop. The buffer is stream state, not one pass's registration.
Reduced from pipecat-ai pipecat/services/resembleai/tts.py (_receive_messages)."""


class StreamingTTSService:
    def __init__(self, ws, sink, threshold: int) -> None:
        self.ws = ws
        self.sink = sink
        self.threshold = threshold
        self._buffers: dict[str, bytearray] = {}

    async def receive_messages(self) -> None:
        async for msg in self.ws:
            request_id = msg["request_id"]
            if msg["type"] == "audio":
                if request_id not in self._buffers:
                    self._buffers[request_id] = bytearray()
                buf = self._buffers[request_id]
                buf.extend(msg["audio"])
                if len(buf) >= self.threshold:
                    await self.sink.push(request_id, bytes(buf))
                    buf.clear()
            elif msg["type"] == "end":
                rest = self._buffers.pop(request_id, None)
                if rest:
                    await self.sink.push(request_id, bytes(rest))
