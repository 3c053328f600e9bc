# expect: none
"""acquire() and release() derive the key with the same helper."""
import hashlib
from typing import Dict, List


def combined_digest(digests: List[str]) -> str:
    return hashlib.sha256("|".join(digests).encode()).hexdigest()


class EmbeddingRefs:
    def __init__(self):
        self.refs: Dict[str, int] = {}

    def acquire(self, digests: List[str]) -> str:
        key = combined_digest(digests)
        self.refs[key] = self.refs.get(key, 0) + 1
        return key

    def release(self, digests: List[str]) -> None:
        key = combined_digest(digests)
        if key in self.refs:
            self.refs[key] -= 1
            if self.refs[key] == 0:
                del self.refs[key]
