# expect: 29 CTX401 `self._versions`
# expect: 44 CTX401 `self._seen`
# expect: 54 CTX401 `self._prefetched`
# expect: 66 CTX401 `self._notes`
"""Near misses of a bounded key domain: each key here can take a new value per call.
A target id formatted from a public method's arguments; a private watcher handed,
through a thread, the arguments of a public method; a split index that is checked
only on one branch (the other branch writes any index); and a key tested against a
table of live requests, which gains an entry per request."""
import threading


class WatchRegistry:
    def __init__(self, api):
        self.api = api
        self._versions: dict[str, str] = {}
        self._watches: dict[str, object] = {}
        self._seen: dict[str, str] = {}
        self._active: dict[str, object] = {}
        self._rows: dict[int, int] = dict.fromkeys(range(8), 0)
        self._prefetched: dict[int, int] = {}
        self._buffered: dict[int, object] = {}
        self._live: dict[str, object] = {}
        self._notes: dict[str, str] = {}
        self._pending: dict[str, str] = {}

    def watch(self, kind: str, name: str) -> None:
        target_id = f"{kind}/{name}"
        self._versions[target_id] = self.api.version(target_id)
        self._watches[target_id] = self.api.watch(target_id)

    def unwatch(self, target_id: str) -> None:
        self._watches.pop(target_id, None)

    def add_watch(self, kind: str, name: str) -> None:
        threading.Thread(target=self._run_watch, args=(kind, name), daemon=True).start()

    def _run_watch(self, kind: str, name: str) -> None:
        target_id = f"{kind}/{name}"
        w = self.api.watch(target_id)
        self._active[target_id] = w
        try:
            for event in w.stream():
                self._seen[target_id] = event["version"]
        finally:
            self._active.pop(target_id, None)

    def get(self, idx: int, nbytes: int, block) -> None:
        self._buffered[idx] = block
        if not block.rest:
            del self._buffered[idx]
        if idx in self._rows:
            self._rows[idx] += block.num_rows
        self._prefetched[idx] = nbytes

    def admit(self, rid: str, req: object) -> None:
        self._live[rid] = req
        self._pending[rid] = "queued"

    def finish(self, rid: str) -> None:
        self._pending.pop(rid, None)
        self._live.pop(rid, None)

    def annotate(self, rid: str, note: str) -> None:
        if rid in self._live:
            self._notes[rid] = note
            self._pending[rid] = note
