# expect: 16 CTX501
"""The guard is inverted: the unscoped base id is returned exactly when a user is
known, so every user shares one entry."""
import hashlib
from typing import Optional


def hash_string_sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class ScopedStore:
    def _scoped_cache_key(self, base_id: str, user_id: Optional[str]):
        if user_id is None:
            return hash_string_sha256(base_id)
        return ("doc", base_id)
