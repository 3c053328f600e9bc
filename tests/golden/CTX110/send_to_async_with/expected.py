import httpx
from aiohttp import web

client = httpx.AsyncClient(base_url="http://model-backend:8000")


async def relay(request: web.Request) -> web.StreamResponse:
    payload = await request.json()
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await resp.prepare(request)
    async with client.stream("POST", "/generate", json=payload) as upstream:
        async for line in upstream.aiter_lines():  # relay line by line
            await resp.write(line.encode() + b"\n")
    await resp.write_eof()
    return resp
