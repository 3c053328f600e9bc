# expect: 13 CTX103
"""The token is bound with an assignment expression in the `if` test; the reset
runs only when the backend call returns."""
from contextvars import ContextVar

request_tenant: ContextVar[str] = ContextVar("request_tenant")


def run_for_tenant(req, backend):
    if not req.tenant_id:
        raise ValueError("tenant required")
    # the token is always truthy: this is "set, then run"
    if (token := request_tenant.set(req.tenant_id)):
        result = backend.run(req.payload)       # may raise: tenant stays bound
        request_tenant.reset(token)
        return result
    return None
