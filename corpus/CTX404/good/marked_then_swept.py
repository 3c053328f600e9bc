# expect: none
"""`stop` marks the entry finished and the engine's step sweeps finished entries out."""
import enum
from typing import Dict


class Status(enum.Enum):
    RUNNING = 1
    FINISHED = 2


class Entry:
    def __init__(self, rid):
        self.rid = rid
        self.status = Status.RUNNING


class Engine:
    def __init__(self):
        self.table: Dict[str, Entry] = {}

    def admit(self, rid: str) -> None:
        self.table[rid] = Entry(rid)

    def complete(self, rid: str) -> Entry:
        entry = self.table.pop(rid)
        entry.status = Status.FINISHED
        return entry

    def stop(self, rid: str) -> None:
        entry = self.table.get(rid)
        if entry is not None:
            entry.status = Status.FINISHED

    def step(self) -> None:
        for rid in [r for r, e in self.table.items() if e.status is Status.FINISHED]:
            del self.table[rid]
