# expect: 23 CTX501 tenant
"""Near miss of a tagged entry: the value records the tenant and the user, but no
reader compares them; the hit is returned to whichever tenant asks, so the stored
tenant tells nothing apart."""
from dataclasses import dataclass
from typing import Dict

_RESULT_CACHE: Dict[str, "Entry"] = {}


@dataclass
class Entry:
    answer: str
    user_id: str
    tenant_id: str


def generate(tenant_id: str, user_id: str, prompt: str) -> str:
    return f"{tenant_id}:{user_id}:{prompt}"


def cached_answer(prompt_digest: str, prompt: str, tenant_id: str, user_id: str) -> str:
    if prompt_digest not in _RESULT_CACHE:
        _RESULT_CACHE[prompt_digest] = Entry(answer=generate(tenant_id, user_id, prompt), user_id=user_id, tenant_id=tenant_id)
    return _RESULT_CACHE[prompt_digest].answer
