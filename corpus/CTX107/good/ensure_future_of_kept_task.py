# expect: none
# The task is created in the call's own Context, kept in a module-level set and
# returned to the caller; `ensure_future(task)` hands back that same task, only to
# attach the callback that drops the reference when it is done.
import asyncio
import contextvars

_TASK_REFS: set[asyncio.Task] = set()


class Call:
    def __init__(self, fn) -> None:
        self.fn = fn
        self.context = contextvars.copy_context()

    async def _run_async(self, coro):
        return await coro

    def run(self) -> asyncio.Task:
        loop = asyncio.get_running_loop()
        task = self.context.run(loop.create_task, self._run_async(self.fn()))
        _TASK_REFS.add(task)
        asyncio.ensure_future(task).add_done_callback(lambda _: _TASK_REFS.discard(task))
        return task

    def run_plain(self) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(self._run_async(self.fn()))
        _TASK_REFS.add(task)
        asyncio.ensure_future(task).add_done_callback(_TASK_REFS.discard)
        return task
