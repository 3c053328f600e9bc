# expect: 10 CTX103
"""Kind: binding the token to `_` keeps nothing: the tenant set here stays bound after the call,
for whatever runs next in this Context."""
import contextvars

_tenant = contextvars.ContextVar("tenant", default=None)


def handle(req):
    _ = _tenant.set(req.tenant)
    return process(req)


def process(req):
    return _tenant.get()
