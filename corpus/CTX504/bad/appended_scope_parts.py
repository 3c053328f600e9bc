# expect: 18 CTX504
"""The router's prefix hash appends whichever scope ids a request carries to one
list: a user-only request and a tenant-only request with equal ids collide."""
import hashlib
from typing import List, Optional


def prefix_hash(token_ids: List[int], tenant_id: Optional[str] = None,
                user_id: Optional[str] = None) -> str:
    scope_parts = []
    if tenant_id:
        scope_parts.append(tenant_id)
    if user_id:
        scope_parts.append(user_id)
    h = hashlib.sha256()
    h.update(repr(tuple(token_ids)).encode())
    # the parts are joined bare; which slot a value came from is lost
    for part in scope_parts:
        h.update(part.encode())
    h.update(str(len(scope_parts)).encode())
    return h.hexdigest()
