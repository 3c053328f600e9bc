# expect: none
"""Entries that record whose they are, checked on every read in other shapes: a check
function given the entry and the caller's session, and a walk that skips entries of
another tenant before using them."""
from dataclasses import dataclass
from typing import Dict, List


@dataclass
class CachedReply:
    text: str
    session_id: str
    tenant_id: str


_REPLY_CACHE: Dict[str, CachedReply] = {}


def _owned_by(reply: CachedReply, session_id: str) -> bool:
    return reply.session_id == session_id


def store_reply(digest: str, text: str, session_id: str, tenant_id: str) -> None:
    _REPLY_CACHE[digest] = CachedReply(text, session_id, tenant_id)


def reply_for(digest: str, session_id: str) -> str | None:
    found = _REPLY_CACHE.get(digest)
    if found is None or not _owned_by(found, session_id):
        return None
    return found.text


def replies_of(tenant_id: str) -> List[str]:
    out = []
    for digest in list(_REPLY_CACHE):
        entry = _REPLY_CACHE[digest]
        if entry.tenant_id != tenant_id:
            continue
        out.append(entry.text)
    return out
