# expect: 11 CTX501 tenant
"""Near miss of a tagged entry: the stored tuple records the tenant next to the
answer, but the hit path returns `hit[0]` without comparing `hit[1]` with the
caller's tenant, so one tenant's answer is served to every tenant."""
from typing import Dict, Tuple

_ANSWER_CACHE: Dict[str, Tuple[str, str]] = {}


def answer(prompt: str, tenant_id: str, generate) -> str:
    hit = _ANSWER_CACHE.get(prompt)
    if hit is not None:
        return hit[0]
    _ANSWER_CACHE[prompt] = (generate(tenant_id, prompt), tenant_id)
    return _ANSWER_CACHE[prompt][0]
