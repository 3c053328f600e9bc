# expect: none
"""Next to good/project_helper_named_run_in_executor_pkg: the project's helper drops the
Context; that is reported in the helper, where the loop is called."""
from contextvars import ContextVar

from agentkit import _utils

run_id: ContextVar[str] = ContextVar("run_id", default="")


def on_event(arg):
    return f"{run_id.get()}: {arg}"


async def dispatch(arg):
    run_id.set("r-1")
    return await _utils.run_in_executor(on_event, arg)
