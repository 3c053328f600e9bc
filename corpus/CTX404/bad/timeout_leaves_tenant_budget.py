# expect: 25 CTX404
import time


class RateLimitManager:
    def __init__(self):
        self.inflight: dict[str, float] = {}
        self.budgets: dict[str, int] = {}

    def start(self, req_id: str, tenant_budget: int) -> None:
        self.inflight[req_id] = time.monotonic()
        self.budgets[req_id] = tenant_budget

    def finish(self, req_id: str) -> None:
        del self.inflight[req_id]
        self._release_budget(req_id)

    def cancel(self, req_id: str) -> None:
        self.inflight.pop(req_id, None)
        self._release_budget(req_id)

    def _release_budget(self, req_id: str) -> None:
        self.budgets.pop(req_id, None)

    def timeout(self, req_id: str) -> None:
        # expired requests drop their start time but keep their budget reservation forever
        self.inflight.pop(req_id, None)
