# expect: 15 CTX110
"""aiohttp relay: the upstream response holds a pooled connection until release()."""
import aiohttp
from aiohttp import web

session = aiohttp.ClientSession()


async def relay(request: web.Request) -> web.StreamResponse:
    body = await request.json()
    out = web.StreamResponse()
    await out.prepare(request)
    # the client going away raises at `out.write`: `upstream.release()` never runs
    # and the connection never returns to the session's pool
    upstream = await session.post("http://backend:8000/generate", json=body)
    async for line in upstream.content:
        await out.write(line)
    upstream.release()
    await out.write_eof()
    return out
