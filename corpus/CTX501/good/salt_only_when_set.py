# expect: none
"""Reduced from lmcache's S3 adapter `_object_key_to_string`: the salt is appended on
every path where the key has one; the bare base name is returned only for an unsalted
key, the shared bucket by design."""
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class ObjectKey:
    model_name: str
    kv_rank: int
    chunk_hash: bytes
    cache_salt: Optional[str] = None


def object_cache_key(key: ObjectKey) -> str:
    base = f"{key.model_name}@{key.kv_rank:08x}@{key.chunk_hash.hex()}"
    if key.cache_salt:
        return f"{base}@{key.cache_salt}"
    return base


def object_cache_key_guarded(key: ObjectKey) -> str:
    base = f"{key.model_name}@{key.chunk_hash.hex()}"
    if key.cache_salt is None or key.cache_salt == "":
        return base
    return base + "@" + key.cache_salt
