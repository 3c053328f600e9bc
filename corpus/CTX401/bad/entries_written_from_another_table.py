# expect: 27 CTX401
# Near miss of the rewrite-while-scanning exemption: the loop walks the incoming
# request's table, not the manager's own, so each request can add new keys that
# nothing ever removes.
import threading
import time


class TimeoutManager(threading.Thread):
    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.deadlines: dict[str, float | None] = {}
        self.mu = threading.Lock()

    def run(self) -> None:
        while True:
            now = time.monotonic()
            with self.mu:
                for thread_id, deadline in self.deadlines.items():
                    if deadline is not None and now >= deadline:
                        self.deadlines[thread_id] = None
            time.sleep(1)

    def merge(self, request_deadlines: dict[str, float]) -> None:
        with self.mu:
            for thread_id, deadline in request_deadlines.items():
                self.deadlines[thread_id] = deadline
