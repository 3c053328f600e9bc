# expect: 15 CTX404
import asyncio


class Engine:
    def __init__(self):
        self.requests: dict[str, dict] = {}

    async def add_request(self, request_id: str, prompt: str) -> None:
        self.requests[request_id] = {"prompt": prompt, "finished": False, "queue": asyncio.Queue()}

    def finish(self, request_id: str) -> None:
        self.requests.pop(request_id, None)

    def abort(self, request_id: str) -> None:
        state = self.requests.get(request_id)
        if state is not None:
            state["finished"] = True
