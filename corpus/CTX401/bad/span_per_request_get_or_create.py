# expect: 20 CTX401
# expect: 21 CTX401
"""A get-or-create is bounded by its key, and here the key is the request: every
request mints a span id that both maps keep forever."""
import threading
import uuid

_request_by_span: dict[str, str] = {}
_span_by_request: dict[str, str] = {}
_guard = threading.Lock()


def span_for(request_id: str) -> str:
    with _guard:
        known = _span_by_request.get(request_id)
        if known is not None:
            return known
        span_id = uuid.uuid4().hex
        # one new pair per request id: requests never repeat, so neither map stops growing
        _request_by_span[span_id] = request_id
        _span_by_request[request_id] = span_id
    return span_id
