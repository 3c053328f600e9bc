# expect: none
"""trio's context tests: the ContextVar is made inside the test function, so a value set
in it is readable only by that function and its closures, and is gone with it."""
import contextvars

import trio


def test_child_task_inherits_value() -> None:
    var: contextvars.ContextVar[str] = contextvars.ContextVar("test")
    var.set("before")

    async def inner() -> None:
        task = trio.lowlevel.current_task()
        assert task.context.get(var) == "before"
        var.set("after")
        assert var in task.context

    trio.run(inner)
