# expect: 24 CTX203
# expect: 30 CTX203
# expect: 35 CTX203
"""Near misses of a WebSocket connection registry: a registry nothing ever removes
from (every connection ever made stays), a session that keeps the caller's copied
Context as well as its socket, and an HTTP request (not a connection) kept in a
registry that does drop entries."""
import contextvars

from fastapi import FastAPI, Request, WebSocket

app = FastAPI()
_listeners: dict[str, WebSocket] = {}
_sessions: dict[str, "Session"] = {}
_requests: dict[str, Request] = {}


class Session:
    def __init__(self, ws: WebSocket, ctx: contextvars.Context) -> None:
        self.ws, self.ctx = ws, ctx


async def listen(ws: WebSocket, topic: str) -> None:
    _listeners[topic] = ws


async def open_session(ws: WebSocket, sid: str) -> None:
    await ws.accept()
    snapshot = contextvars.copy_context()
    _sessions[sid] = Session(ws, snapshot)


@app.post("/jobs/{job_id}")
async def submit(request: Request, job_id: str) -> dict:
    _requests[job_id] = request
    return {"queued": job_id}


def close(sid: str, job_id: str) -> None:
    _sessions.pop(sid, None)
    _requests.pop(job_id, None)
