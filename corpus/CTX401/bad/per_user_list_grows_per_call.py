# expect: 10 CTX401
"""Keyed by user, a bounded population, but every call appends to the user's list:
the entries themselves grow without bound."""
from datetime import datetime, timezone

_FEEDBACK: dict[str, list[dict]] = {}


def record_feedback(user_id: str, message_id: str, rating: int) -> None:
    _FEEDBACK.setdefault(user_id, []).append(
        {"message_id": message_id, "rating": rating, "at": datetime.now(timezone.utc)})


def user_score(user_id: str) -> float:
    events = _FEEDBACK.get(user_id, [])
    return sum(e["rating"] for e in events) / len(events) if events else 0.0
