# expect: 13 CTX204
# expect: 14 CTX204
# expect: 15 CTX204
"""Lazily 'caches' the current user per thread, read from a request-scoped ContextVar."""
import threading
from contextvars import ContextVar

current_request: ContextVar = ContextVar("current_request")
_state = threading.local()


def current_user() -> str:
    if not hasattr(_state, "user"):
        _state.user = current_request.get().headers["x-user"]   # per-request value, no parameter
    return _state.user


async def handle(request, llm):
    current_request.set(request)
    answer = await llm.ainvoke(request.prompt)
    return {"user": current_user(), "answer": answer}
