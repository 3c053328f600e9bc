# expect: none
"""Kind seen in litellm `llms/custom_httpx/aiohttp_handler.py`, the Stainless-generated
`AsyncHttpxClientWrapper` and semantic-kernel: `__del__` schedules the client's close as a
task and drops it. It is a best-effort close of an object that is already unreachable;
blind reviews of real code judged 12 of 13 such tasks harmless, so it is not reported."""
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
