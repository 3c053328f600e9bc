# expect: 23 CTX401
"""A chat frontend that keeps every conversation's history in a module dict."""
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
