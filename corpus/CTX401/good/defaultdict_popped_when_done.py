# expect: none
"""The defaultdict entry a request's chunks go into is popped when the request ends,
on every path."""
from collections import defaultdict

_PENDING: defaultdict[str, list[str]] = defaultdict(list)


def on_chunk(request_id: str, chunk: str) -> None:
    _PENDING[request_id].append(chunk)


def finish(request_id: str) -> str:
    return "".join(_PENDING.pop(request_id, []))
