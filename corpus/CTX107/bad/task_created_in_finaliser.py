# expect: 17 CTX107
"""Kind seen in litellm `llms/custom_httpx/aiohttp_handler.py` and semantic-kernel
`azure_ai_inference_base.py`: `__del__` schedules the client's close as a task and drops
it. The owner is being finalised, so `self` cannot keep the task, but nothing else does
either: the close can be collected before it runs and the HTTP session leaks (the fix keeps
it in a module-level set)."""
import asyncio


class Handler:
    def __init__(self, session):
        self.session = session

    def __del__(self):
        try:
            loop = asyncio.get_running_loop()
            loop.create_task(self.session.close())
        except RuntimeError:
            pass
