# expect: 10 CTX204
# expect: 14 CTX204
"""The thread-local is read in a sync helper that only async handlers call."""
from threading import local

_request_state = local()


def current_user() -> str:
    return getattr(_request_state, "user", "anonymous")


async def handle(request: dict, llm) -> dict:
    _request_state.user = request["user"]
    answer = await llm.ainvoke(request["prompt"])
    return {"user": current_user(), "answer": answer}
