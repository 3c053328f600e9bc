# expect: 18 CTX401 `self.delivered` (long-lived `ReplyQueue` set)
# expect: 35 CTX401 `self.delivered` (long-lived `Inbox` set)
"""Near misses of a per-invocation owner. `ReplyQueue` objects are entries of a table
that drops them, but the listener also keeps the latest one in `self.current`, so
that instance lives on after its entry goes; `Inbox` objects are entries of a table
that never loses one. Either way some instance lives as long as the listener, and
its `delivered` set grows with every key it is given."""
from dataclasses import dataclass, field


@dataclass
class ReplyQueue:
    delivered: set = field(default_factory=set)
    seen: set = field(default_factory=set)
    pending: list = field(default_factory=list)

    def push(self, key: tuple, item: object) -> None:
        self.delivered.add(key)
        self.seen.add(key)
        self.pending.append((key, item))

    def pop(self) -> tuple:
        key, item = self.pending.pop(0)
        self.seen.discard(key)
        return key, item


@dataclass
class Inbox:
    delivered: set = field(default_factory=set)
    seen: set = field(default_factory=set)
    pending: list = field(default_factory=list)

    def push(self, key: tuple, item: object) -> None:
        self.delivered.add(key)
        self.seen.add(key)
        self.pending.append((key, item))

    def pop(self) -> tuple:
        key, item = self.pending.pop(0)
        self.seen.discard(key)
        return key, item


class ReplyListener:
    def __init__(self):
        self._queues: dict[str, ReplyQueue] = {}
        self._inboxes: dict[str, Inbox] = {}
        self.current: ReplyQueue | None = None

    def on_reply(self, run_id: str, key: tuple, item: object) -> None:
        queue = self._queues.get(run_id) or ReplyQueue()
        queue.push(key, item)
        self._queues[run_id] = queue
        self.current = queue

    def forget(self, run_id: str) -> None:
        self._queues.pop(run_id, None)

    def on_mail(self, box: str, key: tuple, item: object) -> None:
        inbox = self._inboxes[box] if box in self._inboxes else Inbox()
        inbox.push(key, item)
        self._inboxes[box] = inbox
