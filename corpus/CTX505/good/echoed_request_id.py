# expect: none
"""Reduced from a streaming RPC client: each request gets an id from a counter helper,
the id is written into the outgoing request, and the reader thread resolves the
waiter by the id the server echoes back on the response. `resp.req_id` is the very
value `_mint_id()` returned: the server copies it from the request."""
import threading
from collections import OrderedDict
from typing import Any, Callable, Dict, Optional


class StreamClient:
    def __init__(self, outbox):
        self._outbox = outbox
        self._lock = threading.Lock()
        self._counter = 0
        self._callbacks: Dict[int, Optional[Callable[[Any], None]]] = {}
        self._in_flight: Dict[int, Any] = OrderedDict()

    def _mint_id(self) -> int:
        self._counter = (self._counter % 0x7FFFFFFF) + 1
        return self._counter

    def submit(self, request, on_reply=None) -> None:
        with self._lock:
            rid = self._mint_id()
            request.req_id = rid
            self._callbacks[rid] = on_reply
            self._in_flight[rid] = request
            self._outbox.put(request)

    def _on_response(self, resp) -> None:
        if resp.req_id not in self._callbacks:
            return
        cb = self._callbacks.pop(resp.req_id)
        if cb is not None:
            cb(resp)
        with self._lock:
            if resp.req_id in self._in_flight:
                del self._in_flight[resp.req_id]
