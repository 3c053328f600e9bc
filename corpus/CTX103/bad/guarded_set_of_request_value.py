# expect: 17 CTX103
"""Next to crewai's once-per-Context latch (see good/once_per_context_latch.py): the same
guard, but what is set is the request's own user, not a constant flag - it stays bound for
the next request on this worker thread, which then skips setting its own."""
from contextvars import ContextVar

_user: ContextVar[str | None] = ContextVar("user", default=None)


def emit(event) -> None:
    print(event)


def bind_user(req) -> None:
    if _user.get():
        return
    _user.set(req.user)
    emit(req.path)
