# expect: none
"""The fix: a bounded LRU cache of conversation histories."""
from dataclasses import dataclass, field

import cachetools


@dataclass
class History:
    session_id: str
    turns: list = field(default_factory=list)


_HISTORIES: "cachetools.LRUCache[str, History]" = cachetools.LRUCache(maxsize=1024)


def chat(session_id: str, text: str, llm) -> str:
    history = _HISTORIES.get(session_id)
    if history is None:
        history = History(session_id)
        _HISTORIES[session_id] = history
    reply = llm("\n".join([*history.turns, text]))
    history.turns += [text, reply]
    return reply
