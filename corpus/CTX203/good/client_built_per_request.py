# expect: none
"""The per-user client lives for one request only; the global keeps plain config."""
from starlette.requests import Request
from starlette.responses import JSONResponse

_base_url = "https://upstream.example"


class UpstreamClient:
    def __init__(self, base_url: str, api_key: str) -> None:
        self.base_url = base_url
        self.api_key = api_key

    def list_models(self) -> list[str]:
        return []


async def models(request: Request) -> JSONResponse:
    client = UpstreamClient(_base_url, request.headers["x-api-key"])
    return JSONResponse(client.list_models())
