# expect: 43 CTX404 `abort_request()` ends the request but leaves its entry in `self._stored_tokens`
"""Near miss of the connector whose `close()` ends every session: here a per-request
`abort_request(request_id)` also ends the session and forgets the stored-token
count that `finish_request` frees, so every aborted request leaks one entry
(`close()` itself, which takes no key, is not reported)."""
from typing import Dict, Set


class KVConnector:
    def __init__(self, client) -> None:
        self._client = client
        self._closed = False
        self._lookups: Dict[str, object] = {}
        self._active_sessions: Set[str] = set()
        self._stored_tokens: Dict[str, int] = {}

    def submit_lookup(self, request_id: str, op) -> None:
        self._lookups[request_id] = op
        self._active_sessions.add(request_id)

    def submit_store(self, request_id: str, end: int) -> None:
        self._active_sessions.add(request_id)
        self._lookups[request_id] = end
        self._stored_tokens[request_id] = end

    def end_session(self, request_id: str) -> None:
        self._lookups.pop(request_id, None)
        self._active_sessions.discard(request_id)
        self._client.end_session(request_id)

    def finish_request(self, request_id: str) -> None:
        self.end_session(request_id)
        self._stored_tokens.pop(request_id, None)

    def end_all_sessions(self) -> None:
        for request_id in list(self._active_sessions):
            self.end_session(request_id)

    def close(self) -> None:
        self.end_all_sessions()
        self._client.close()

    def abort_request(self, req) -> None:
        rid = req.request_id
        self.end_session(rid)
