# expect: none
# API setters that bind every ContextVar of a snapshot for their caller: copying
# values back into the caller's context after a thread hop, and clearing a
# logging library's bound vars at the start of a request. Leaving the values
# bound is each function's purpose; the caller's Context owns them.
import contextvars

_PREFIX = "reqlog_"


def _rehome(storage: dict) -> dict:
    return dict(storage)


def restore_context(context: contextvars.Context) -> None:
    """Copy changed contextvars from a worker's context into the current one."""
    for cvar in context:
        cvalue = context.get(cvar)
        if isinstance(cvalue, dict):
            cvalue = _rehome(cvalue)  # a copy of its own for this thread
        try:
            if cvar.get() != cvalue:
                cvar.set(cvalue)
        except LookupError:
            cvar.set(cvalue)


def clear_bound_vars() -> None:
    """Unbind every request-log var in the current context."""
    ctx = contextvars.copy_context()
    for k in ctx:
        if k.name.startswith(_PREFIX):
            k.set(Ellipsis)
