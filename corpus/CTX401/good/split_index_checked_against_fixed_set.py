# expect: none
"""A coordinator serves `n` consumers, each identified by its split index. The
per-split counters are made with `dict.fromkeys(range(n), 0)` and only ever
incremented, so indexing them without a default accepts exactly the indices
`0..n-1`: every call that gets past that index has a split index of that range,
and the prefetch table it writes under the same index (also from its `finally`)
holds at most `n` entries. Other shapes of a key checked against a fixed set: a
kind tested against a module constant set before the write, and a slot that must
already be in a table made for the `n` slots. Shape of ray's data SplitCoordinator."""
import threading

KINDS = frozenset({"cpu", "gpu", "memory"})


class SplitCoordinator:
    def __init__(self, n: int):
        self._n = n
        self._lock = threading.Lock()
        self._rows: dict[int, int] = dict.fromkeys(range(n), 0)
        self._buffered: dict[int, object] = {}
        self._prefetched: dict[int, int] = {}
        self._usage: dict[str, float] = {}
        self._last_report: dict[str, float] = {}
        self._slots: dict[int, str | None] = {i: None for i in range(n)}
        self._owners: dict[int, str] = {}
        self._taken: dict[int, str] = {}

    def reset(self) -> None:
        self._rows = dict.fromkeys(range(self._n), 0)

    def get(self, split_idx: int, prefetched_bytes: int, block) -> object:
        done = False
        try:
            with self._lock:
                self._buffered[split_idx] = block
                if not block.rest:
                    del self._buffered[split_idx]
                self._prefetched[split_idx] = prefetched_bytes
                self._rows[split_idx] += block.num_rows
            done = True
            return block
        finally:
            if not done:
                with self._lock:
                    self._prefetched[split_idx] = 0

    def report_usage(self, kind: str, amount: float) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown resource kind {kind!r}")
        self._usage[kind] = amount
        self._last_report[kind] = amount

    def clear_report(self, kind: str) -> None:
        self._last_report.pop(kind, None)

    def claim(self, slot: int, owner: str) -> None:
        if slot in self._slots:
            self._slots[slot] = owner
            self._owners[slot] = owner
            self._taken[slot] = owner

    def release(self, slot: int) -> None:
        self._taken.pop(slot, None)

    def total(self) -> int:
        return sum(self._rows.values()) + sum(self._prefetched.values())
