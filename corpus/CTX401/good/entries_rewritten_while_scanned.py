# expect: none
# A timeout manager thread keeps one deadline per worker thread_id. `_expire()` scans the
# table and resets the deadlines that passed, writing only under the keys it is
# iterating, so the scan never adds an entry; `arm()` writes under a fixed thread_id.
import threading
import time

MAIN_THREAD = "main"


class TimeoutManager(threading.Thread):
    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.deadlines: dict[str, float | None] = {}
        self.mu = threading.Lock()

    def _expire(self) -> list[str]:
        fired = []
        now = time.monotonic()
        with self.mu:
            for thread_id, deadline in self.deadlines.items():
                if deadline is not None and now >= deadline:
                    self.deadlines[thread_id] = None
                    fired.append(thread_id)
            for thread_id in list(self.deadlines):
                self.deadlines[thread_id] = self.deadlines[thread_id] or None
        return fired

    def run(self) -> None:
        while True:
            self._expire()
            time.sleep(1)

    def arm(self, ttl: float) -> None:
        with self.mu:
            self.deadlines[MAIN_THREAD] = time.monotonic() + ttl
