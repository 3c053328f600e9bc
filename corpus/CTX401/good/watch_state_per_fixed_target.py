# expect: none
"""A watcher service keeps the last resource version per watched target. The
targets are a short literal list built when the service starts (the cluster and
at most two parent objects, named by the object's own fields), each handed to its
own watcher thread with `threading.Thread(target=..., args=(kind, name))`; two
more watches use module constants. However long the process runs, the table holds
one entry per target: the watchers only overwrite their own slot.
Shape of ray's dashboard KubernetesEventProvider."""
import threading
from enum import Enum

MEMBERS_WATCH = "Pod/__members__"
EVENTS_WATCH = "Event/__pods__"


class Phase(Enum):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"


class EventWatchService:
    def __init__(self, api, cluster: str, job: str | None, service: str | None):
        self.api = api
        self._cluster = cluster
        self._job = job
        self._service = service
        self._versions: dict[str, str | None] = {}
        self._watches: dict[str, object] = {}
        self._phase_counts: dict[str, int] = {}
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        targets = [("Cluster", self._cluster)]
        if self._job:
            targets.append(("Job", self._job))
        if self._service:
            targets.append(("Service", self._service))
        for kind, name in targets:
            t = threading.Thread(target=self._watch_target, args=(kind, name), daemon=True)
            t.start()
            self._threads.append(t)
        for watch_id in (MEMBERS_WATCH, EVENTS_WATCH):
            self._threads.append(threading.Thread(target=self._watch_fixed, args=(watch_id,), daemon=True))

    def _watch_target(self, kind: str, name: str) -> None:
        target_id = f"{kind}/{name}"
        w = self.api.watch(target_id)
        self._watches[target_id] = w
        try:
            for event in w.stream(resource_version=self._versions.get(target_id)):
                if event.get("error"):
                    self._versions[target_id] = None
                    continue
                self._versions[target_id] = event["resource_version"]
        finally:
            self._watches.pop(target_id, None)

    def _watch_fixed(self, watch_id: str) -> None:
        for event in self.api.watch(watch_id).stream():
            self._versions[watch_id] = event["resource_version"]

    def count_phases(self, pods: list[dict]) -> dict[str, int]:
        for phase in Phase:
            self._phase_counts[phase.value] = sum(1 for p in pods if p["phase"] == phase.value)
        return dict(self._phase_counts)
