# expect: none
"""The decided fix for a task started in `__del__` (see bad/task_created_in_finaliser.py):
the owner is being finalised, so the task is kept in a module-level set until it is done."""
import asyncio

_closing: set = set()


class Handler:
    def __init__(self, session):
        self.session = session

    def __del__(self):
        try:
            loop = asyncio.get_running_loop()
            task = loop.create_task(self.session.close())
            _closing.add(task)
            task.add_done_callback(_closing.discard)
        except RuntimeError:
            pass
