# expect: none
"""A plugin registers a redirect check for websocket sessions once, at import time."""
from typing import Awaitable, Callable, Optional

from fastapi import FastAPI, WebSocket

app = FastAPI()

_redirect_check: Optional[Callable[[WebSocket, str], Awaitable[Optional[dict]]]] = None


def register_redirect_check(check: Callable[[WebSocket, str], Awaitable[Optional[dict]]]) -> None:
    global _redirect_check
    if _redirect_check is not None:
        raise ValueError("a redirect check is already registered")
    _redirect_check = check


@app.websocket("/ssh/{cluster}")
async def ssh(websocket: WebSocket, cluster: str):
    await websocket.accept()
    if _redirect_check is not None:
        target = await _redirect_check(websocket, cluster)
        if target:
            await websocket.send_json(target)
            await websocket.close()
            return
    await websocket.send_text("connected")
