# expect: none
"""Reduced from a deterministic event loop: a timer handle is built with the sequence
number it is stored under; cancellation receives the base-class handle, narrows it to
this file's subclass, and pops by the number the handle carries. A reply message of
this file's own class carries the request's id in a field named otherwise: its value
is whatever the peer put there, not shown to differ."""
import asyncio
from dataclasses import dataclass
from typing import Dict


@dataclass
class Reply:
    in_reply_to: int
    body: bytes


class _SeqTimer(asyncio.TimerHandle):
    def __init__(self, seq: int, when: float, callback, args, loop):
        super().__init__(when, callback, args, loop)
        self._seq = seq


class ReplayLoop:
    def __init__(self, loop):
        self._loop = loop
        self._next = 0
        self._timers: Dict[int, _SeqTimer] = {}
        self._waiters: Dict[int, asyncio.Future] = {}

    def _take_seq(self) -> int:
        self._next += 1
        return self._next

    def call_at(self, when: float, callback, *args) -> _SeqTimer:
        seq = self._take_seq()
        handle = _SeqTimer(seq, when, callback, args, self._loop)
        self._timers[seq] = handle
        return handle

    def _timer_handle_cancelled(self, handle: asyncio.TimerHandle) -> None:
        if not isinstance(handle, _SeqTimer):
            raise TypeError("not a replay timer")
        self._timers.pop(handle._seq, None)

    def ask(self, send, body: bytes) -> asyncio.Future:
        mid = self._take_seq()
        fut = self._loop.create_future()
        self._waiters[mid] = fut
        send(mid, body)
        return fut

    def on_reply(self, reply: Reply) -> None:
        fut = self._waiters.pop(reply.in_reply_to, None)
        if fut is not None:
            fut.set_result(reply.body)
