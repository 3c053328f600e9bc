# expect: 20 CTX203
"""Starlette endpoint that caches the upstream backend built from the first caller's token."""
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

_backend = None


class Backend:
    def __init__(self, token: str) -> None:
        self.token = token

    def models(self) -> list[str]:
        return []


async def list_models(req):
    global _backend
    _backend = _backend or Backend(token=req.headers.get("authorization"))
    return JSONResponse(_backend.models())


app = Starlette(routes=[Route("/models", list_models)])
