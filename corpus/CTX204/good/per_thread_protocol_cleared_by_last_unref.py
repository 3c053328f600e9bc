# expect: none
"""Kind: one protocol per thread (so per event loop), shared by every subscriber on it and
cleared by the last one's unref (aioice's mDNS): `tl.protocol = None` outside the first-use
test is a close, as a delete is."""
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
    return _mdns.protocol


async def unref_protocol(subscriber: object) -> None:
    if hasattr(_mdns, "lock"):
        async with _mdns.lock:
            _mdns.subscribers.discard(subscriber)
            if _mdns.protocol and not _mdns.subscribers:
                _mdns.protocol = None
