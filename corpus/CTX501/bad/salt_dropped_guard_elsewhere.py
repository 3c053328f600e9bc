# expect: 23 CTX501 cache salt
# expect: 30 CTX501 cache salt
"""The unsalted base name is returned on a path where the key may well carry a salt:
the guard tests the model name, and a guard that only logs leaves nothing."""
import logging
from dataclasses import dataclass
from typing import Optional

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ObjectKey:
    model_name: str
    chunk_hash: bytes
    cache_salt: Optional[str] = None


def object_cache_key(key: ObjectKey) -> str:
    base = f"{key.chunk_hash.hex()}"
    if key.model_name:
        return f"{key.model_name}@{base}@{key.cache_salt}"
    return base


def object_cache_key_logged(key: ObjectKey) -> str:
    base = f"{key.model_name}@{key.chunk_hash.hex()}"
    if key.cache_salt:
        log.debug("salted key %s", key.cache_salt)
    return base
