# expect: 11 CTX401
"""Reading a missing key of a defaultdict inserts it: every request id that streams a
chunk files an entry, and nothing removes them."""
from collections import defaultdict

_PENDING: defaultdict[str, list[str]] = defaultdict(list)


def on_chunk(request_id: str, chunk: str) -> None:
    # the subscript read is the insertion
    _PENDING[request_id].append(chunk)


def text_of(request_id: str) -> str:
    return "".join(_PENDING.get(request_id, []))
