# expect: none
"""pydantic-ai's shape: `_utils.run_in_executor(callback, arg)` is the project's own helper
(it copies the Context itself), not the event loop's method of the same name."""
from contextvars import ContextVar

from agentkit import _utils

run_id: ContextVar[str] = ContextVar("run_id", default="")


def on_event(arg):
    return f"{run_id.get()}: {arg}"


async def dispatch(arg):
    run_id.set("r-1")
    return await _utils.run_in_executor(on_event, arg)
