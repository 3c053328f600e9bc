# expect: none
_SOCKETS: dict = {}
_PENDING: dict = {}


def open_session(session_id: str, ws) -> None:
    _SOCKETS[session_id] = ws
    _PENDING[session_id] = []


def close_session(session_id: str) -> None:
    ws = _SOCKETS.pop(session_id, None)
    _PENDING.pop(session_id, None)
    if ws is not None:
        ws.close()


def fail_session(session_id: str, error: str) -> None:
    ws = _SOCKETS.pop(session_id, None)
    _PENDING.pop(session_id, None)
    if ws is not None:
        ws.send(error)
