# expect: none
"""The same summary cache, with the user from the request context dict hashed into the
key: each user's summaries stay theirs."""
import hashlib

_SUMMARIES: dict[str, str] = {}
PROFILES: dict[str, str] = {}


def _tone(context: dict) -> str:
    return PROFILES.get(context.get("user_id"), "neutral")


def _prompt(context: dict, text: str) -> str:
    return "Summarise in a " + _tone(context) + " tone:\n" + text


def summarise(context: dict, text: str, llm) -> str:
    digest = hashlib.md5(repr((context.get("user_id"), text)).encode()).hexdigest()
    if digest not in _SUMMARIES:
        _SUMMARIES[digest] = llm(_prompt(context, text))
    return _SUMMARIES[digest]
