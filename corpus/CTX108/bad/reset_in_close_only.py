# expect: 33 CTX108
"""The id map is started over only in `close()`, which `stop()` calls once at the end
of the object's life: nothing in a repeating loop reaches it, so while the client
lives, every id a cancelled forward leaves stays."""
import asyncio


class VoiceClient:
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
            async for event in self._link.events():
                await self._on_event(event)

    async def close(self) -> None:
        await self._link.close()
        self._call_names = {}

    async def stop(self) -> None:
        await self.close()

    async def _on_event(self, event) -> None:
        if event.kind == "tool_call":
            self._call_names[event.call_id] = event.name
            await self.forward_tool_call(event.call_id, event.args)

    async def forward_tool_call(self, call_id: str, args: dict) -> None:
        await self._link.send({"call_id": call_id, "args": args})
