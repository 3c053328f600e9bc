# expect: none
import time


class RateLimitManager:
    def __init__(self):
        self.inflight: dict[str, float] = {}
        self.budgets: dict[str, int] = {}

    def start(self, req_id: str, tenant_budget: int) -> None:
        self.inflight[req_id] = time.monotonic()
        self.budgets[req_id] = tenant_budget

    def finish(self, req_id: str) -> None:
        self._free(req_id)

    def cancel(self, req_id: str) -> None:
        self._free(req_id)

    def timeout(self, req_id: str) -> None:
        self._free(req_id)

    def _free(self, req_id: str) -> None:
        # one helper for every terminal path
        self.inflight.pop(req_id, None)
        self.budgets.pop(req_id, None)
