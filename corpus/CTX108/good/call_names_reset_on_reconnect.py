# expect: none
"""A realtime voice client: tool calls are remembered by id until their result comes
back. The receive loop runs as a task; on a dropped connection it reconnects, and the
teardown before every reconnect starts the id map over. A cancellation while a tool
call is forwarded leaves its id only until the next reconnect or shutdown.
Reduced from pipecat pipecat/services/google/gemini_live/llm.py (_disconnect,
_reconnect, _connection_task_handler)."""
import asyncio


class RealtimeVoiceClient:
    def __init__(self, dial) -> None:
        self.dial = dial
        self._link = None
        self._reader: asyncio.Task | None = None
        self._call_names: dict[str, str] = {}

    async def open(self) -> None:
        self._link = await self.dial()
        self._reader = asyncio.create_task(self._read_forever())

    async def _read_forever(self) -> None:
        while True:
            try:
                async for event in self._link.events():
                    await self._on_event(event)
            except ConnectionError:
                await self._redial()
                return

    async def _teardown(self) -> None:
        try:
            if self._link is not None:
                await self._link.close()
                self._link = None
            self._call_names = {}
        except Exception:
            pass

    async def _redial(self) -> None:
        await self._teardown()
        await self.open()

    async def close(self) -> None:
        await self._teardown()

    async def _on_event(self, event) -> None:
        if event.kind == "tool_call":
            self._call_names[event.call_id] = event.name
            await self.forward_tool_call(event.call_id, event.args)

    async def forward_tool_call(self, call_id: str, args: dict) -> None:
        await self._link.send({"call_id": call_id, "args": args})
