# expect: none
"""The shared client holds only the service's own credentials; the caller's token is
sent per request, and the per-request record kept in the module dict is plain data."""
import os

import httpx
from fastapi import Depends, FastAPI, Request

app = FastAPI()
_shared: dict[str, httpx.AsyncClient] = {}
_last_seen: dict[str, dict] = {}


def upstream_client() -> httpx.AsyncClient:
    client = _shared.get("upstream")
    if client is None:
        _shared["upstream"] = client = httpx.AsyncClient(
            base_url="https://inference.internal",
            headers={"Authorization": f"Bearer {os.environ['SERVICE_TOKEN']}"},
        )
    return client


@app.get("/v1/models")
async def list_models(request: Request, client: httpx.AsyncClient = Depends(upstream_client)):
    _last_seen[request.client.host] = {"path": request.url.path, "agent": request.headers.get("user-agent")}
    resp = await client.get("/models", headers={"X-Forwarded-Authorization": request.headers.get("authorization", "")})
    return resp.json()
