# expect: 11 CTX204
# expect: 12 CTX204
# expect: 14 CTX204
import threading
from flask import g

_tl = threading.local()


async def handle(llm):
    if not hasattr(_tl, "user"):
        _tl.user = g.user
    out = await llm.ainvoke("hi")
    return _tl.user, out
