# fix: kept
# fix case (add_scope_id_to_key): a digest key gains the tenant inside its bytes and stays a str
import hashlib
from dataclasses import dataclass


@dataclass
class Req:
    tenant_id: str
    prompt: str


_CACHE: dict = {}


def lookup(req: Req, compute) -> str:
    key = hashlib.sha256(req.prompt.encode()).hexdigest()
    if key not in _CACHE:
        _CACHE[key] = compute(req.prompt)
    return key[:8] + ":" + _CACHE[key]


def behaviour():
    _CACHE.clear()
    a = lookup(Req("a", "hi"), str.upper)
    b = lookup(Req("a", "hi"), str.lower)
    return len(a), a[9:], b[9:], len(_CACHE)
