# expect: none
"""A lookup key returned before the tenant is read: there is no tenant to add there."""
import hashlib


def cache_key(data: dict) -> tuple | None:
    kind = data.get("kind")
    name = data.get("name")
    if not isinstance(kind, str) or not isinstance(name, str):
        return None
    if kind == "shared":
        return ("shared", hashlib.sha256(name.encode()).hexdigest())
    if kind == "scoped":
        tenant_id = data.get("tenant_id")
        if isinstance(tenant_id, str):
            return ("scoped", tenant_id, name)
    return None
