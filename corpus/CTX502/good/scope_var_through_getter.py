# expect: none
"""The accessor is called outside the cache and its value is part of the key; a helper
that only logs the org inside the memoized function returns nothing of it."""
import logging
from contextvars import ContextVar
from functools import lru_cache

_org: ContextVar[str | None] = ContextVar("org", default=None)
log = logging.getLogger(__name__)

ROUTES = {("acme", "chat"): "gpt-4o", ("globex", "chat"): "llama-3-70b"}


def org_or_default() -> str:
    org = _org.get(None)
    return "public" if org is None else org


def _note_miss(task: str) -> None:
    log.debug("route miss for %s (org %s)", task, _org.get(None))


@lru_cache(maxsize=512)
def _route(org: str, task: str) -> str:
    if (org, task) not in ROUTES:
        _note_miss(task)
    return ROUTES.get((org, task), "small-default")


def route(task: str) -> str:
    return _route(org_or_default(), task)
