# expect: none
import os

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


class UpstreamClient:
    _instance: "UpstreamClient | None" = None

    def __init__(self, api_key: str) -> None:
        self._api_key = api_key

    @classmethod
    def for_key(cls, api_key: str) -> "UpstreamClient":
        if cls._instance is None:
            cls._instance = cls(api_key)
        return cls._instance

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return [[float(len(t))] for t in texts]


async def embeddings(request: Request) -> JSONResponse:
    body = await request.json()
    client = UpstreamClient.for_key(os.environ["UPSTREAM_API_KEY"])
    return JSONResponse(await client.embed(body["input"]))


app = Starlette(routes=[Route("/embeddings", embeddings, methods=["POST"])])
