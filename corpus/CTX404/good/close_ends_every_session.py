# expect: none
"""`close()` shuts the whole connector down: it ends every open session (walking the
table), stops the heartbeat and closes the client. It takes no request key and looks
none up, so it is not one request's terminal path; what it leaves in the per-request
token table goes with the connector.
Reduced from lmcache lmcache/integration/sglang/unified_lmcache_mp_connector.py
(finish_request, end_session, end_all_sessions, close)."""
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
        if self._closed:
            return
        self._closed = True
        self.end_all_sessions()
        self._client.close()
