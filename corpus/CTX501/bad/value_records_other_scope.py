# expect: 22 CTX501 tenant
"""Near miss of a tagged entry: the value records the user, but the key misses the
tenant, which the value does not record; and a value only computed from the scope
(`render(tenant_id, ...)`) cannot be told apart by a reader."""
from dataclasses import dataclass
from typing import Dict

_RESULT_CACHE: Dict[str, "Entry"] = {}


@dataclass
class Entry:
    answer: str
    user_id: str


def generate(tenant_id: str, user_id: str, prompt: str) -> str:
    return f"{tenant_id}:{user_id}:{prompt}"


def cached_answer(prompt_digest: str, prompt: str, tenant_id: str, user_id: str) -> str:
    if prompt_digest not in _RESULT_CACHE:
        _RESULT_CACHE[prompt_digest] = Entry(answer=generate(tenant_id, user_id, prompt), user_id=user_id)
    return _RESULT_CACHE[prompt_digest].answer
