# expect: none
"""A set of ids of tool calls already answered: the id is added only after the answer
was sent, and the whole set is reset when a new session starts, so it records
finished work, not an unfinished request's state.
Reduced from pipecat-ai pipecat/services/ultravox/llm.py (_completed_tool_calls)."""


class RealtimeLLMService:
    def __init__(self, ws):
        self.ws = ws
        self._completed_tool_calls: set[str] = set()

    async def start_session(self) -> None:
        self._completed_tool_calls = set()
        await self.ws.connect()

    async def _send_tool_result(self, tool_call_id: str, result: str) -> None:
        await self.ws.send({"invocationId": tool_call_id, "result": result})
        self._completed_tool_calls.add(tool_call_id)

    async def handle_result(self, tool_call_id: str, result: str) -> None:
        await self._send_tool_result(tool_call_id, result)
        await self.ws.push_frame(tool_call_id)
