# expect: 19 CTX501 cache salt
"""Near miss of a filtered entry: the filter compares the salt with a field that is
not part of the key, so the key still misses it."""
import hashlib
from typing import Dict, List, Tuple

_KV_BLOCKS: Dict[Tuple[str, bytes], bytes] = {}


def seal(payload: bytes, cache_salt: str) -> bytes:
    return hashlib.sha256(cache_salt.encode() + payload).digest()


def store_salted(entries: List[Tuple[str, bytes]], owners: List[str], cache_salt: str) -> None:
    for i, entry in enumerate(entries):
        owner = owners[i]
        if owner != cache_salt:
            continue
        _KV_BLOCKS[entry] = seal(entry[1], cache_salt)
