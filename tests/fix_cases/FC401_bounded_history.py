# fix: kept
# fix case (bounded_registry): a module dict of sessions becomes a standard-library bounded dict (no new dependency)
from dataclasses import dataclass, field


@dataclass
class History:
    session_id: str
    turns: list = field(default_factory=list)


_HISTORIES: dict[str, History] = {}


def render_prompt(history: History, text: str) -> str:
    return "\n".join([*history.turns, text])


def chat(session_id: str, text: str, llm) -> str:
    history = _HISTORIES.get(session_id)
    if history is None:
        history = History(session_id)
        _HISTORIES[session_id] = history
    reply = llm(render_prompt(history, text))
    history.turns += [text, reply]
    return reply


def behaviour():
    out = [chat("s1", "hi", str.upper), chat("s2", "yo", str.upper), chat("s1", "again", len)]
    return out, sorted(_HISTORIES), isinstance(_HISTORIES, dict)


def comment_kept(text: str) -> bool:
    # no third-party import was added (this project does not depend on it)
    dep = "cache" + "tools"
    return f"import {dep}" not in text and f"from {dep}" not in text
