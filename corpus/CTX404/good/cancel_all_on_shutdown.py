# expect: none
"""`cancel_all(reason)` is the scheduler's shutdown: its only argument is a reason,
not a request id, and it walks every running request through the private
`_drop_running` step. It ends the scheduler, not one request; the per-request paths
(`finish`, `abort`) both free the output buffers."""
from typing import Dict, List


class Scheduler:
    def __init__(self, notifier) -> None:
        self.notifier = notifier
        self.running: Dict[str, object] = {}
        self.outputs: Dict[str, List[str]] = {}

    def add(self, rid: str, seq) -> None:
        self.running[rid] = seq
        self.outputs[rid] = []

    def _drop_running(self, rid: str) -> None:
        self.running.pop(rid, None)
        self.notifier.dropped(rid)

    def finish(self, rid: str) -> List[str]:
        self._drop_running(rid)
        return self.outputs.pop(rid)

    def abort(self, rid: str) -> None:
        self._drop_running(rid)
        self.outputs.pop(rid, None)

    def cancel_all(self, reason: str) -> None:
        self.notifier.shutdown(reason)
        for rid in [r for r in self.running]:
            self._drop_running(rid)
