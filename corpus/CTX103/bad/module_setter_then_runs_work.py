# expect: 15 CTX103
# expect: 16 CTX103
"""Next to crewai's setters (see good/module_setter_applies_snapshot.py): this module-level
function binds the snapshot and then runs the request itself, in the same Context, on a
pooled worker thread: the values stay bound for the next request."""
from contextvars import ContextVar

from .runner import run_request

_current_task_id: ContextVar[str | None] = ContextVar("current_task_id", default=None)
_tenant: ContextVar[str | None] = ContextVar("tenant", default=None)


def handle_snapshot(ctx) -> None:
    _current_task_id.set(ctx["current_task_id"])
    _tenant.set(ctx["tenant"])
    run_request(ctx)
