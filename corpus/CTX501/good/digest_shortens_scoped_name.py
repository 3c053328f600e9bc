# expect: none
"""Reduced from agno's vectordb/chroma/chromadb.py `_collection_name_for`: the md5 only
shortens an over-long base name; the returned name still ends with the user."""
from hashlib import md5
from typing import Optional


class Collections:
    _MAX_NAME_LEN = 63
    _SUFFIX_LEN = 18

    def __init__(self, collection_name: str):
        self.collection_name = collection_name

    def _collection_hash_key(self, user_id: Optional[str]) -> str:
        if user_id is None:
            return self.collection_name
        base = self.collection_name
        if len(base) + self._SUFFIX_LEN > self._MAX_NAME_LEN:
            digest = md5(base.encode("utf-8")).hexdigest()[:16]
            keep = self._MAX_NAME_LEN - self._SUFFIX_LEN - len(digest) - 1
            base = f"{base[:keep]}_{digest}"
        return f"{base}__{user_id}"
