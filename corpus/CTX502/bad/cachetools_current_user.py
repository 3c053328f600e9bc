# expect: 18 CTX502
"""A TTL-cached model list for the dashboard calls the current-user accessor inside
the cached function: for five minutes everyone sees the first caller's models."""
from cachetools import TTLCache, cached

from .auth import get_current_user

_MODEL_LIST_CACHE = TTLCache(maxsize=64, ttl=300)

CATALOGUE = [
    {"id": "llama-70b", "orgs": {"acme"}},
    {"id": "mixtral", "orgs": {"acme", "globex"}},
]


@cached(cache=_MODEL_LIST_CACHE)
def visible_models(region: str) -> list:
    user = get_current_user()
    return [m["id"] for m in CATALOGUE if user.org in m["orgs"] and region]
