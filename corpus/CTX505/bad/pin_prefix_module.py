# expect: 22 CTX505
"""Module-level pin counts for prompt prefixes: pin() keys on the digest helper,
unpin() on the request's raw prompt text."""
import hashlib
from collections import defaultdict
from typing import Dict

_PINNED: Dict[str, int] = defaultdict(int)


def prefix_digest(prompt: str, n_chars: int = 512) -> str:
    return hashlib.blake2b(prompt[:n_chars].encode(), digest_size=16).hexdigest()


def pin(prompt: str) -> str:
    h = prefix_digest(prompt)
    _PINNED[h] += 1
    return h


def unpin(request) -> None:
    key = request.prompt
    if _PINNED.get(key, 0) > 0:
        _PINNED[key] -= 1
        if _PINNED[key] == 0:
            del _PINNED[key]
