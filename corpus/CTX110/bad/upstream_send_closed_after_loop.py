# expect: 18 CTX110
"""Proxy: relays the model backend's SSE stream to the client."""
import httpx
from starlette.responses import StreamingResponse

backend = httpx.AsyncClient(base_url="http://model-backend:8000")


class Relay:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def handle(self, request):
        payload = await request.json()
        return StreamingResponse(self._relay(payload), media_type="text/event-stream")

    async def _relay(self, payload: dict):
        upstream = await self.client.send(self.client.build_request("POST", "/generate", json=payload), stream=True)
        async for chunk in upstream.aiter_bytes():
            yield chunk
        await upstream.aclose()
