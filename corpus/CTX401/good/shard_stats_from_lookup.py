# expect: none
"""Per-shard statistics; the shard comes out of a session->shard table by subscript."""
from collections import defaultdict

SESSION_SHARD: dict = {}
SHARD_LATENCY: dict = {}


def open_session(session_id: str, shard: str) -> None:
    SESSION_SHARD[session_id] = shard


def close_session(session_id: str) -> None:
    SESSION_SHARD.pop(session_id, None)


def record(session_id: str, latency_ms: float) -> None:
    placement = SESSION_SHARD[session_id]
    bucket = placement
    SHARD_LATENCY[bucket] = latency_ms
