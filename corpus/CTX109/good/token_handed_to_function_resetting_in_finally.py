# expect: none
"""The token is handed to a plain (non-generator) function that resets it in finally."""
from contextvars import ContextVar

current_tenant: ContextVar[str | None] = ContextVar("current_tenant", default=None)


def _run_and_unbind(engine, prompt, token):
    try:
        return engine.run(prompt)
    finally:
        current_tenant.reset(token)


def handle(engine, req):
    token = current_tenant.set(req.tenant_id)
    return _run_and_unbind(engine, req.prompt, token)
