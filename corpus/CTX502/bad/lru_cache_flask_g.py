# expect: 13 CTX502
"""Rate-limit quotas depend on the organisation on flask.g, but the memoized lookup
is keyed by plan name only."""
from functools import lru_cache

from flask import g

QUOTAS = {("acme", "pro"): 10_000, ("globex", "pro"): 2_000}


@lru_cache(maxsize=None)
def quota_for(plan: str) -> int:
    return QUOTAS.get((g.org_id, plan), 100)


def check_quota(plan: str, used: int) -> bool:
    return used < quota_for(plan)
