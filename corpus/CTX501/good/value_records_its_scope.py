# expect: none
"""Reduced from gptcache's MapDataManager `save`: the entry's value records whose it is
(the session set in a tuple, the tenant in a record, the user in a dict), and the
reader checks it on every hit, so entries are not served across that scope."""
from dataclasses import dataclass
from typing import Dict, Optional

_RESULT_CACHE: Dict[str, "Entry"] = {}
_PROFILE_CACHE: Dict[str, dict] = {}


@dataclass
class Entry:
    answer: str
    tenant_id: str


def generate(tenant_id: str, prompt: str) -> str:
    return f"{tenant_id}:{prompt}"


class MapDataManager:
    def __init__(self):
        self.data_cache: Dict[str, tuple] = {}

    def save(self, question: str, answer: str, embedding_data: str, session=None) -> None:
        session_id = {session.name} if session else set()
        self.data_cache[embedding_data] = (question, answer, embedding_data, session_id)

    def search(self, embedding_data: str, session=None) -> Optional[str]:
        hit = self.data_cache.get(embedding_data)
        if hit is None or (session is not None and session.name not in hit[3]):
            return None
        return hit[1]


def cached_answer(prompt_digest: str, prompt: str, tenant_id: str) -> str:
    hit = _RESULT_CACHE.get(prompt_digest)
    if hit is not None and hit.tenant_id == tenant_id:
        return hit.answer
    _RESULT_CACHE[prompt_digest] = Entry(answer=generate(tenant_id, prompt), tenant_id=tenant_id)
    return _RESULT_CACHE[prompt_digest].answer


def profile_for(handle: str, user_id: Optional[str]) -> dict:
    if handle in _PROFILE_CACHE and _PROFILE_CACHE[handle]["user_id"] != user_id:
        del _PROFILE_CACHE[handle]
    if handle not in _PROFILE_CACHE:
        _PROFILE_CACHE[handle] = {"bio": generate(user_id or "", handle), "user_id": user_id}
    return _PROFILE_CACHE[handle]
