import httpx
from aiohttp import web

client = httpx.AsyncClient(base_url="http://model-backend:8000")


async def relay(request: web.Request) -> web.StreamResponse:
    resp = web.StreamResponse()
    await resp.prepare(request)
    upstream = await client.send(client.build_request("POST", "/generate"), stream=True)
    n = 0
    async for line in upstream.aiter_lines():  # one SSE line at a time
        n += 1
        await resp.write(line.encode() + b"\n")
    # give the connection back to the pool
    await upstream.aclose()
    await resp.write_eof()
    return resp
