# expect: none
"""Completions of one task invocation are held in order by a small queue object.
Each queue is made for one invocation and lives only as an entry of the listener's
table, keyed by that invocation, which `forget()` deletes when the invocation ends
(and a per-stream table made by `defaultdict(Reorderer)` that `close_stream()` pops):
the `delivered` set of one queue grows with that invocation's completions only and
goes away with it. Shape of hatchet-sdk's OrderedCompletionQueue."""
from collections import defaultdict, deque
from dataclasses import dataclass, field


@dataclass
class CompletionQueue:
    pending: deque = field(default_factory=deque)
    delivered: set = field(default_factory=set)
    pending_keys: set = field(default_factory=set)

    def enqueue(self, key: tuple, result: object) -> None:
        self.delivered.add(key)
        self.pending_keys.add(key)
        self.pending.append((key, result))

    def dequeue_head(self) -> tuple:
        head = self.pending.popleft()
        self.pending_keys.discard(head[0])
        return head


class Reorderer:
    def __init__(self):
        self.seen: dict[int, bytes] = {}
        self.next_seq = 0

    def push(self, seq: int, chunk: bytes) -> list[bytes]:
        self.seen[seq] = chunk
        out = []
        while self.next_seq in self.seen:
            out.append(self.seen.pop(self.next_seq))
            self.next_seq += 1
        return out


class CompletionListener:
    def __init__(self):
        self._queues: dict[tuple, CompletionQueue] = {}
        self._streams: defaultdict[str, Reorderer] = defaultdict(Reorderer)

    def on_completed(self, task_id: str, invocation: int, node: int, result: object) -> None:
        order_key = (task_id, invocation)
        key = (task_id, invocation, node)
        queue = self._queues[order_key] if order_key in self._queues else CompletionQueue()
        if key not in queue.delivered:
            queue.enqueue(key, result)
        self._queues[order_key] = queue

    def forget(self, task_id: str, invocation: int) -> None:
        for k in [k for k in self._queues if k[0] == task_id and k[1] <= invocation]:
            del self._queues[k]

    def on_chunk(self, stream_id: str, seq: int, chunk: bytes) -> list[bytes]:
        return self._streams[stream_id].push(seq, chunk)

    def close_stream(self, stream_id: str) -> None:
        self._streams.pop(stream_id, None)
