# expect: none
"""Per-websocket helpers whose writer loops serve that one connection and are ended by
the helper's own close path (a sentinel and an await, or a cancel)."""
import asyncio

from fastapi import FastAPI, WebSocket

app = FastAPI()


class SendQueue:
    def __init__(self, client_ws: WebSocket) -> None:
        self.client_ws = client_ws
        self.queue: asyncio.Queue = asyncio.Queue()
        self.writer_task = asyncio.create_task(self._writer())

    async def _writer(self) -> None:
        while True:
            msg = await self.queue.get()
            if msg is None:
                break
            await self.client_ws.send_text(msg)

    async def close(self) -> None:
        self.queue.put_nowait(None)
        await self.writer_task


class Heartbeat:
    def __init__(self, socket: WebSocket, every: float) -> None:
        self.socket = socket
        self.every = every
        self.pinger = asyncio.ensure_future(self._ping())

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            await self.socket.send_text("ping")

    def stop(self) -> None:
        self.pinger.cancel()


@app.websocket("/ws")
async def chat(ws: WebSocket) -> None:
    sender = SendQueue(ws)
    beat = Heartbeat(ws, 10.0)
    try:
        async for text in ws.iter_text():
            sender.queue.put_nowait(text.upper())
    finally:
        beat.stop()
        await sender.close()
