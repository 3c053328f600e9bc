# expect: 15 CTX204
# expect: 19 CTX204
# expect: 20 CTX204
# expect: 22 CTX204
"""Kind: an EAFP read of some other flag of the thread-local (`draining`) is no cache guard:
the per-request buffer written after it is shared by every task on the loop."""
import asyncio
import threading

_local = threading.local()


async def handle(body: bytes) -> bytes:
    try:
        if _local.draining:
            return b""
    except AttributeError:
        pass
    _local.buf = []                 # a fresh buffer per request, shared by every task
    _local.buf.append(body)
    await asyncio.sleep(0)
    return b"".join(_local.buf)     # may be another request's body
