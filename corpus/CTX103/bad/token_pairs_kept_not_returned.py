# expect: 17 CTX103
"""Next to good/token_pairs_returned_to_caller.py: the tokens are collected into a list,
but the list is neither returned nor reset - only its length goes back - so nobody can
undo the labels and they stay bound for the next request on this worker thread."""
from contextvars import ContextVar

_tenant_label: ContextVar[str | None] = ContextVar("tenant_label", default=None)
_region_label: ContextVar[str | None] = ContextVar("region_label", default=None)


def bind_labels(tenant: str | None = None, region: str | None = None) -> int:
    pending = [(_tenant_label, tenant), (_region_label, region)]
    bound = []
    for var, value in pending:
        if value is None:
            continue
        bound.append((var, var.set(value)))
    return len(bound)
