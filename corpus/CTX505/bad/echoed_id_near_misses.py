# expect: 53 CTX505 indexes `self._by_slot` by `reply.prompt`
# expect: 61 CTX505 indexes `self._pending` by `entry.parent_seq`
# expect: 70 CTX505 indexes `self._chunk_refs` by `chunk.digest`
# expect: 102 CTX505 indexes `self._sent` by `out.req_id`
"""Near misses of an id echoed back on a reply: here the release's field is shown to
hold another value than the key. The reply carries the raw prompt, which the acquire
side only hashed; the pending entry's `parent_seq` is a field its constructor never
set to the key; the chunk's `digest` is a digest of its bytes alone, while the
acquire side keyed `chunk_key(data, tenant)`; an entry of the declared class is stamped
with the key in one field and released by another."""
import hashlib
from typing import Dict


def slot_key(model: str, prompt: str) -> str:
    return hashlib.sha256(f"{model}\0{prompt}".encode()).hexdigest()


def chunk_key(data: bytes, tenant: str) -> str:
    return hashlib.sha256(tenant.encode() + b"\0" + data).hexdigest()


class _Pending:
    def __init__(self, fut, parent_seq: int):
        self.fut = fut
        self.parent_seq = parent_seq


class Chunk:
    def __init__(self, data: bytes):
        self.data = data
        self.digest = hashlib.sha256(data).hexdigest()


class Dispatcher:
    def __init__(self, loop):
        self._loop = loop
        self._seq = 0
        self._by_slot: Dict[str, object] = {}
        self._pending: Dict[int, _Pending] = {}
        self._chunk_refs: Dict[str, int] = {}

    def _take_seq(self) -> int:
        self._seq += 1
        return self._seq

    def start(self, msg, fut) -> None:
        key = slot_key(msg.model, msg.prompt)
        msg.slot = key
        self._by_slot[key] = fut

    def on_reply(self, reply) -> None:
        self._by_slot.pop(reply.prompt, None)

    def call(self, parent: int):
        seq = self._take_seq()
        self._pending[seq] = _Pending(self._loop.create_future(), parent)
        return seq

    def expire(self, entry: _Pending) -> None:
        self._pending.pop(entry.parent_seq, None)
        entry.fut.cancel()

    def hold(self, chunk: Chunk, tenant: str) -> str:
        key = chunk_key(chunk.data, tenant)
        self._chunk_refs[key] = self._chunk_refs.get(key, 0) + 1
        return key

    def drop(self, chunk: Chunk) -> None:
        if chunk.digest not in self._chunk_refs:
            return
        self._chunk_refs[chunk.digest] -= 1
        if self._chunk_refs[chunk.digest] == 0:
            del self._chunk_refs[chunk.digest]


class Outgoing:
    def __init__(self, body: bytes):
        self.body = body
        self.req_id = 0
        self.trace_id = 0


class Stamper:
    """The table declares `Outgoing` entries; send() stamps the key into `trace_id`, so
    abandoning by the entry's `req_id` (never set to the key) misses it."""

    def __init__(self):
        self._n = 0
        self._sent: Dict[int, Outgoing] = {}

    def _stamp(self) -> int:
        self._n += 1
        return self._n

    def send(self, out: Outgoing) -> None:
        rid = self._stamp()
        out.trace_id = rid
        self._sent[rid] = out

    def abandon(self, out: Outgoing) -> None:
        self._sent.pop(out.req_id, None)
