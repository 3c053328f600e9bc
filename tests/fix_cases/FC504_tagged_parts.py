# fix: kept
# fix case (tag_key_parts): starred optional parts are tagged; equal inputs still give equal keys, and the
# tenant-only and adapter-only keys no longer meet
import hashlib
from typing import Optional, Sequence


def prefix_cache_key(tenant_id: Optional[str], adapter_name: Optional[str],
                     token_ids: Sequence[int]) -> str:
    tenant_parts = (tenant_id,) if tenant_id else ()
    adapter_parts = (adapter_name,) if adapter_name else ()
    material = (
        *tenant_parts,
        *adapter_parts,
        *token_ids,
    )
    return hashlib.sha256(repr(material).encode()).hexdigest()


def behaviour():
    a = prefix_cache_key("t1", None, [1, 2])
    b = prefix_cache_key("t1", None, [1, 2])
    return a == b, len(a), prefix_cache_key(None, "x", [3]) == prefix_cache_key(None, "x", [3])
