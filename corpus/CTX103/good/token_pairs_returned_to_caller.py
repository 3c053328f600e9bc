# expect: none
"""Kind: tokens collected into a list that the function returns. `bind_labels` sets every
label it is given and hands the `(var, token)` pairs to its caller, who passes them to
`unbind_labels` in a `finally` - a returned list of tokens is the caller's, like a
returned token."""
from contextvars import ContextVar

_tenant_label: ContextVar[str | None] = ContextVar("tenant_label", default=None)
_region_label: ContextVar[str | None] = ContextVar("region_label", default=None)


def bind_labels(tenant: str | None = None, region: str | None = None) -> list:
    pending = [(_tenant_label, tenant), (_region_label, region)]
    bound = []
    for var, value in pending:
        if value is None:
            continue
        bound.append((var, var.set(value)))
    return bound


def unbind_labels(bound: list) -> None:
    for var, token in reversed(bound):
        var.reset(token)


def handle(request, run):
    bound = bind_labels(tenant=request.tenant, region=request.region)
    try:
        return run(request)
    finally:
        unbind_labels(bound)
