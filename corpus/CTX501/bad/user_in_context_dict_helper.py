# expect: 21 CTX501
"""A summary cache keyed by the text's digest. The summary is written in the user's own
tone: the user comes in the request context dict, and the prompt helper reads it from
there, two calls away from the key. User B gets user A's personalised summary."""
import hashlib

_SUMMARIES: dict[str, str] = {}
PROFILES: dict[str, str] = {}


def _tone(context: dict) -> str:
    return PROFILES.get(context.get("user_id"), "neutral")


def _prompt(context: dict, text: str) -> str:
    return "Summarise in a " + _tone(context) + " tone:\n" + text


def summarise(context: dict, text: str, llm) -> str:
    digest = hashlib.md5(text.encode()).hexdigest()
    if digest not in _SUMMARIES:
        _SUMMARIES[digest] = llm(_prompt(context, text))
    return _SUMMARIES[digest]
