# expect: 13 CTX501 tenant
"""Near miss of a key listing: the loop copies the caller's own parts into the key (a
walk over a parameter, not over a store read), so the key is built here and the tenant
in reach is missing from it."""
_RESULTS = {}


def prompt_cache_key(req, parts):
    out = []
    for p in parts:
        out.append(p.strip())
    _ = req.tenant_id
    return tuple(out)


def answer(req, parts, compute):
    key = prompt_cache_key(req, parts)
    if key not in _RESULTS:
        _RESULTS[key] = compute(req.tenant_id, parts)
    return _RESULTS[key]
