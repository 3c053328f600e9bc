# expect: none
"""The connection manager of FastAPI's WebSocket docs: each connected client's socket
(wrapped in a session that pushes events to it) is kept under its id for as long as
it is connected, and the disconnect handler and a sweep of dead sessions drop it."""
import asyncio

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

app = FastAPI()


class Conversation:
    def __init__(self, cid: str, ws: WebSocket, workspace: str) -> None:
        self.cid = cid
        self.ws = ws
        self.workspace = workspace
        self.alive = True

    async def push(self, event: dict) -> None:
        await self.ws.send_json(event)


class Hub:
    conversations: dict[str, Conversation] = {}

    def __init__(self, workspace: str) -> None:
        self.workspace = workspace

    def attach(self, cid: str, socket: WebSocket) -> Conversation:
        self.conversations[cid] = Conversation(cid, ws=socket, workspace=self.workspace)
        return self.conversations[cid]

    async def sweep(self) -> None:
        while True:
            for cid in [k for k, c in self.conversations.items() if not c.alive]:
                self.conversations.pop(cid, None)
            await asyncio.sleep(60)


_sockets: dict[int, WebSocket] = {}
hub = Hub("/srv/work")


@app.websocket("/ws/{client_id}")
async def feed(websocket: WebSocket, client_id: int) -> None:
    await websocket.accept()
    _sockets[client_id] = websocket
    try:
        while True:
            await websocket.receive_text()
    except WebSocketDisconnect:
        del _sockets[client_id]
