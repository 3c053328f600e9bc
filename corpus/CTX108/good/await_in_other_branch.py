# expect: none
"""A frame dispatcher: the store happens in one `if`/`elif`/`else` branch, the
awaits that hand the id on are in the other branches, never run after the store.
Reduced from pipecat-ai pipecat/processors/aggregators/llm_response_universal.py
(_function_calls_image_results) and pipecat/services/*/realtime/llm.py (process_frame)."""


class ImageResultFrame:
    def __init__(self, tool_call_id: str, image: bytes):
        self.tool_call_id = tool_call_id
        self.image = image


class Aggregator:
    def __init__(self, sink):
        self.sink = sink
        self._image_results: dict[str, ImageResultFrame] = {}

    async def handle_image(self, frame: ImageResultFrame, pending: bool) -> None:
        if pending:
            self._image_results[frame.tool_call_id] = frame
        else:
            await self.sink.push(frame.tool_call_id, frame.image)

    async def process_frame(self, frame, kind: str) -> None:
        if kind == "image":
            self._image_results[frame.tool_call_id] = frame
        elif kind == "result":
            await self.sink.push(frame.tool_call_id, None)

    def on_result(self, tool_call_id: str) -> None:
        self._image_results.pop(tool_call_id, None)
