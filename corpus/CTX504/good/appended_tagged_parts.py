# expect: none
"""The fixed router hash appends each scope id with its kind, so a tenant id can
never stand in for a user id."""
import hashlib
from typing import List, Optional


def prefix_hash(token_ids: List[int], tenant_id: Optional[str] = None,
                user_id: Optional[str] = None) -> str:
    scope_parts = []
    if tenant_id:
        scope_parts.append(("tenant", tenant_id))
    if user_id:
        scope_parts.append(("user", user_id))
    h = hashlib.sha256()
    h.update(repr((tuple(token_ids), tuple(scope_parts))).encode())
    return h.hexdigest()
