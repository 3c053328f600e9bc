# expect: none
"""Stream leases with deadlines: a reaper thread started with the registry wakes every
few seconds, gathers the leases past their deadline with a set comprehension and
drops each. A cancellation while the stream opens leaves its lease only until the
reaper sees it expired. Collect-then-remove shape of sglang EncoderMetaRegistry
`_sweep_loop`, run on a thread instead of a task."""
import threading
import time
from dataclasses import dataclass


@dataclass
class Lease:
    deadline: float
    owner: str


class LeaseTable:
    def __init__(self, lease_s: float = 30.0) -> None:
        self.lease_s = lease_s
        self._leases: dict[str, Lease] = {}
        self._stop = threading.Event()
        self._reaper = threading.Thread(target=self._reap_forever, daemon=True)
        self._reaper.start()

    def _reap_forever(self) -> None:
        while not self._stop.is_set():
            time.sleep(5)
            expired = {sid for sid, lease in self._leases.items() if lease.deadline <= time.time()}
            for sid in expired:
                self._leases.pop(sid, None)

    async def open_stream(self, stream_id: str, owner: str, transport) -> None:
        self._leases[stream_id] = Lease(time.time() + self.lease_s, owner)
        await transport.open(stream_id)
