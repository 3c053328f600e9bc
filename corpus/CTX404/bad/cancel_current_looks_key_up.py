# expect: 23 CTX404 cancel_current takes no argument but looks the current request up and leaves its stream
"""Near miss of a whole-object teardown: `cancel_current()` takes no argument, yet it
ends one request, the one it looks up (`self._current`), and pops it from `running`
while leaving its stream buffer, which `finish` removes."""
from typing import Dict, List, Optional


class Worker:
    def __init__(self) -> None:
        self._current: Optional[str] = None
        self.running: Dict[str, object] = {}
        self.streams: Dict[str, List[str]] = {}

    def start(self, request_id: str, job) -> None:
        self._current = request_id
        self.running[request_id] = job
        self.streams[request_id] = []

    def finish(self, request_id: str) -> List[str]:
        self.running.pop(request_id, None)
        return self.streams.pop(request_id)

    def cancel_current(self) -> None:
        request_id = self._current
        if request_id is None:
            return
        self.running.pop(request_id, None)
        self._current = None
