# expect: 13 CTX504
"""A router's prefix key splices optional tenant and adapter parts into one tuple:
(*("a",), *()) and (*(), *("a",)) are the same key."""
import hashlib
from typing import Optional, Sequence


def prefix_cache_key(tenant_id: Optional[str], adapter_name: Optional[str],
                     token_ids: Sequence[int]) -> str:
    tenant_parts = (tenant_id,) if tenant_id else ()
    adapter_parts = (adapter_name,) if adapter_name else ()
    # hashed with the token ids; the parts' boundaries are lost
    material = (
        *tenant_parts,
        *adapter_parts,
        *token_ids,
    )
    return hashlib.sha256(repr(material).encode()).hexdigest()
