# expect: none
"""A router's prefix key built from strings: each scope part carries its kind as a
text prefix (`tenant=...`, `adapter:...`), so a tenant id can never stand in for an
adapter name when the other part is missing."""
import hashlib
from typing import List, Optional


def prefix_key(token_ids: List[int], tenant_id: Optional[str] = None,
               adapter_name: Optional[str] = None, cache_salt: Optional[str] = None) -> str:
    parts = []
    if tenant_id:
        parts.append(f"tenant={tenant_id!r}")
    if adapter_name:
        parts.append("adapter:" + adapter_name)
    if cache_salt:
        parts.append(f"salt={cache_salt}")
    h = hashlib.sha256(repr(tuple(token_ids)).encode())
    for part in parts:
        h.update(part.encode())
    return h.hexdigest()
