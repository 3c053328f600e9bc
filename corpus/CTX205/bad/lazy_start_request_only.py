# expect: 21 CTX205
# expect: 36 CTX205
"""Next to the exemptions: a process-lifetime writer started lazily by the first
request and by nothing else, and a per-connection helper whose loop nobody ends."""
import asyncio

from fastapi import WebSocket

_writer_task: asyncio.Task | None = None


async def _writer_loop() -> None:
    while True:
        await asyncio.sleep(1)


def _ensure_writer() -> None:
    global _writer_task
    if _writer_task is None or _writer_task.done():
        loop = asyncio.get_running_loop()
        _writer_task = loop.create_task(_writer_loop())


async def audit(request_id: str, decision: str) -> None:
    _ensure_writer()


def audit_shutdown() -> None:
    if _writer_task is not None:
        print("writer still running")


class Forwarder:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            await self.ws.send_text(await self.ws.receive_text())

    def close(self) -> None:
        print("closed", self.task)
