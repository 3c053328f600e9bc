# expect: none
"""A tracker stamps each request it sends with a minted id and keeps the request under
that id. It is finished either by the request itself (annotated with the class the
table is declared to hold, its `req_id` stamped with the key) or by the reply that
echoes the id back."""
from dataclasses import dataclass
from typing import Dict


@dataclass
class Request:
    body: bytes
    req_id: int = 0


class Tracker:
    def __init__(self, transport):
        self._transport = transport
        self._n = 0
        self._inflight: Dict[int, Request] = {}

    def _stamp(self) -> int:
        self._n += 1
        return self._n

    def send(self, req: Request) -> None:
        rid = self._stamp()
        req.req_id = rid
        self._inflight[rid] = req
        self._transport.write(req)

    def abandon(self, req: Request) -> None:
        self._inflight.pop(req.req_id, None)

    def on_reply(self, reply) -> None:
        req = self._inflight.pop(reply.req_id, None)
        if req is not None:
            self._transport.ack(req.req_id)
