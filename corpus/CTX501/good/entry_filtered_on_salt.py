# expect: none
"""The key is the whole salted entry, and the function only reaches the cache for
entries whose salt is the one asked for (an early `continue`, an `if` body): the key
carries the salt it was compared with."""
import hashlib
from typing import Dict, List, Tuple

_KV_BLOCKS: Dict[Tuple[str, str, bytes], bytes] = {}


def seal(payload: bytes, cache_salt: str) -> bytes:
    return hashlib.sha256(cache_salt.encode() + payload).digest()


def store_salted(entries: List[Tuple[str, str, bytes]], cache_salt: str) -> None:
    for entry in entries:
        if entry[0] != cache_salt:
            continue
        _KV_BLOCKS[entry] = seal(entry[2], cache_salt)


def store_one(chunk: Tuple[str, str, bytes], cache_salt: str) -> None:
    if chunk[0] == cache_salt:
        _KV_BLOCKS[chunk] = seal(chunk[2], cache_salt)
