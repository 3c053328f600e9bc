# expect: 23 CTX501 session
# expect: 33 CTX501 session
# expect: 45 CTX501 session
"""The walks read entries back by their own keys (quiet), but the entries are stored
under keys without the session, their values computed from it and not recording it;
and a lookup by keys the caller hands in is a key use like any other."""
from typing import Any, Dict, List, Optional, Set, Tuple

import cachetools

_ANSWER_CACHE: "cachetools.LRUCache[str, Tuple[str, Set[str]]]" = cachetools.LRUCache(maxsize=4096)


def answer_for(prompt: str, session_id: str) -> str:
    return f"{session_id}: {prompt}"


class MapDataManager:
    def __init__(self, max_size: int):
        self.data = cachetools.LRUCache(max_size)

    def save(self, embedding: str, session_id: str) -> None:
        self.data[embedding] = answer_for(embedding, session_id)

    def list_sessions(self, session_id: Optional[str] = None) -> List[Any]:
        session_ids = set()
        for k in self.data:
            if session_id and session_id in self.data[k][3]:
                session_ids.add(k)
        return list(session_ids)

    def lookup(self, keys: List[str], session_id: str) -> List[Any]:
        return [self.data[k] for k in keys]


def sessions_holding(session_id: str) -> List[str]:
    out = []
    for key, _entry in list(_ANSWER_CACHE.items()):
        if session_id in _ANSWER_CACHE[key][1]:
            out.append(key)
    return out


def remember(prompt_digest: str, prompt: str, session_id: str) -> None:
    _ANSWER_CACHE[prompt_digest] = answer_for(prompt, session_id)
