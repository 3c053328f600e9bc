# expect: none
"""A registry from a workflow run to the session that started it. The function stores
the session itself and its id under the run key: the run key is how workers find a
run's session, so each key belongs to one session. Adding the session id to the key
would make the lookup impossible for a worker that only knows the run."""
from typing import Any, Dict, Optional

_RUN_SESSION_REGISTRY: Dict[str, Any] = {}
_RUN_SESSION_IDS: Dict[str, str] = {}


def register_run(execution_ref: str, session: Any, session_id: Optional[str] = None,
                 context: Any = None) -> None:
    _RUN_SESSION_REGISTRY[execution_ref] = session
    resolved = session_id or getattr(context, "session_id", None)
    if resolved:
        _RUN_SESSION_IDS[execution_ref] = resolved


def relay(execution_ref: str, message: str) -> None:
    session = _RUN_SESSION_REGISTRY.get(execution_ref)
    if session is not None:
        session.send(message)
