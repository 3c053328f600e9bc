# expect: none
from typing import Dict


class LLMEngine:
    def __init__(self, scheduler):
        self.scheduler = scheduler
        self.requests: Dict[str, object] = {}
        self.streams: Dict[str, list] = {}

    def add_request(self, request_id: str, prompt: str) -> None:
        self.requests[request_id] = prompt
        self.streams[request_id] = []
        self.scheduler.add(request_id)

    def finish_request(self, request_id: str) -> list:
        self.requests.pop(request_id)
        self.scheduler.remove(request_id)
        return self.streams.pop(request_id)

    def abort_request(self, request_id: str) -> None:
        self.requests.pop(request_id, None)
        self.streams.pop(request_id, None)
        self.scheduler.remove(request_id)
