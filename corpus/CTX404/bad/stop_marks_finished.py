# expect: 31 CTX404
"""`complete` pops the entry and marks it finished; `stop` only marks it finished, so
every stopped request stays in the table for the life of the engine."""
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
