# expect: 13 CTX203
"""A socket registry whose entries only an admin endpoint removes: a client that just
disconnects leaves its socket (and the request it came with) behind for good."""
from fastapi import FastAPI, WebSocket

app = FastAPI()
_sockets: dict[int, WebSocket] = {}


@app.websocket("/ws/{client_id}")
async def feed(websocket: WebSocket, client_id: int) -> None:
    await websocket.accept()
    _sockets[client_id] = websocket
    while True:
        await websocket.receive_text()


@app.post("/admin/kick/{client_id}")
async def kick(client_id: int) -> None:
    ws = _sockets.pop(client_id, None)
    if ws is not None:
        await ws.close()
