# expect: 31 CTX204
# expect: 32 CTX204
# expect: 33 CTX204
# expect: 34 CTX204
# expect: 35 CTX204
# expect: 36 CTX204
# expect: 37 CTX204
# expect: 38 CTX204
# expect: 39 CTX204
# expect: 41 CTX204
# expect: 46 CTX204
# expect: 47 CTX204
# expect: 48 CTX204
# expect: 49 CTX204
# expect: 49 CTX204
# expect: 50 CTX204
"""Kind: the thread-local is cleared by the very def that builds it, on every call: a per-call
lifetime on state every task of the loop shares, so one task's protocol is cleared under another."""
import asyncio
import threading

_mdns = threading.local()


async def create_protocol():
    await asyncio.sleep(0)
    return object()


async def get_or_create_protocol(subscriber: object):
    if not hasattr(_mdns, "lock"):
        _mdns.lock = asyncio.Lock()
        _mdns.protocol = None
        _mdns.subscribers = set()
    async with _mdns.lock:
        if _mdns.protocol is None:
            _mdns.protocol = await create_protocol()
        _mdns.subscribers.add(subscriber)
    out = _mdns.protocol
    await asyncio.sleep(0)
    _mdns.protocol = None  # cleared per call: the next task builds its own
    return out


async def unref_protocol(subscriber: object) -> None:
    if hasattr(_mdns, "lock"):
        async with _mdns.lock:
            _mdns.subscribers.discard(subscriber)
            if _mdns.protocol and not _mdns.subscribers:
                _mdns.protocol = None
