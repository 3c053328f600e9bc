# expect: 16 CTX203
"""A dependency caches the upstream client in a module dict on first use: the client
carries the first caller's bearer token, and every later user talks upstream as them."""
import httpx
from fastapi import Depends, FastAPI, Request

app = FastAPI()
_shared: dict[str, httpx.AsyncClient] = {}


def upstream_client(request: Request) -> httpx.AsyncClient:
    client = _shared.get("upstream")
    if client is None:
        bearer = request.headers.get("authorization", "")
        # the client is built with this caller's credentials and kept for everyone
        _shared["upstream"] = client = httpx.AsyncClient(
            base_url="https://inference.internal", headers={"Authorization": bearer}
        )
    return client


@app.get("/v1/models")
async def list_models(client: httpx.AsyncClient = Depends(upstream_client)):
    resp = await client.get("/models")
    return resp.json()
