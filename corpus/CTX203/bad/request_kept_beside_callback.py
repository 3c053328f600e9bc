# expect: 21 CTX203
# expect: 22 CTX203
"""A registration that keeps the websocket it was called with, not just the callback."""
from typing import Awaitable, Callable, Optional

from fastapi import FastAPI, WebSocket

app = FastAPI()

_hook: Optional[Callable[[WebSocket], Awaitable[None]]] = None
_first_socket: Optional[WebSocket] = None
_sockets: list = []


@app.websocket("/ws")
async def ws_endpoint(websocket: WebSocket, on_open: Callable[[WebSocket], Awaitable[None]] = None):
    global _hook, _first_socket
    await websocket.accept()
    if on_open is not None:
        _hook = on_open
    _first_socket = websocket
    _sockets.append(websocket)
