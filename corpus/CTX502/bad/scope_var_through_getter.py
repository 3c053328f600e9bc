# expect: 26 CTX502
"""Per-organisation model routing: the org is bound per request in a ContextVar and
read through a small accessor; the memoized router bakes the first org into the route."""
from contextvars import ContextVar
from functools import lru_cache

_org: ContextVar[str | None] = ContextVar("org", default=None)

ROUTES = {("acme", "chat"): "gpt-4o", ("globex", "chat"): "llama-3-70b"}


def bind_org(org: str):
    return _org.set(org)


def org_or_default() -> str:
    org = _org.get(None)
    if org is None:
        return "public"
    return org


@lru_cache(maxsize=512)
def route(task: str) -> str:
    # keyed by task only: every org gets the route computed for the first one
    return ROUTES.get((org_or_default(), task), "small-default")
