# expect: none
"""`abort` only marks the dict entry finished; `reap` (run by the engine loop) removes
every entry whose "finished" key is set, so aborted requests leave the table too."""


class Engine:
    def __init__(self):
        self.requests: dict[str, dict] = {}

    def add_request(self, request_id: str, prompt: str) -> None:
        self.requests[request_id] = {"prompt": prompt, "finished": False}

    def finish(self, request_id: str) -> None:
        self.requests.pop(request_id, None)

    def abort(self, request_id: str) -> None:
        state = self.requests.get(request_id)
        if state is not None:
            state["finished"] = True

    def reap(self) -> None:
        for rid in [r for r, st in self.requests.items() if st["finished"]]:
            del self.requests[rid]
