# expect: none
"""Reduced from agno's vectordb/redis/redisdb.py `_scoped_doc_id`: the base id is
returned only when there is no user (the shared bucket); every user's id folds the
user in."""
import hashlib
from typing import Optional


def hash_string_sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class ScopedStore:
    def _scoped_doc_id(self, base_id: str, user_id: Optional[str]) -> str:
        if user_id is None:
            return base_id
        return hash_string_sha256(f"{hash_string_sha256(base_id)}_{user_id}")

    def _scoped_cache_key(self, base_id: str, user_id: Optional[str]) -> str:
        if user_id is not None:
            return f"{base_id}:{user_id}"
        return base_id
