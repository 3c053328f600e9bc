# expect: 16 CTX103
"""Next to good/lazy_per_context_instance.py: the same "set when unset" guard, but what is
set is the caller's request, not a fresh object - the first request's user stays bound for
every later request on this worker thread."""
from contextvars import ContextVar

_who: ContextVar[str | None] = ContextVar("who", default=None)


def audit(line: str) -> None:
    print(line)


def handle(req) -> None:
    if _who.get() is None:
        _who.set(req.user)
        audit("bound " + req.user)
    audit(req.path)
