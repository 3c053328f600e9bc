# expect: none
"""Per-client usage rows built from the request's query, body fields and a clock:
plain values, not the request or any of its mappings."""
import time

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

_usage: dict[str, list] = {}


async def complete(req: Request) -> JSONResponse:
    body = await req.json()
    limit = int(req.query_params.get("limit", "16"))
    client = req.client.host if req.client else "unknown"
    row = [limit, body.get("model"), str(req.path_params.get("tenant")), time.monotonic()]
    if client not in _usage:
        _usage[client] = row
    else:
        _usage[client].extend(row)
    return JSONResponse({"ok": True})


app = Starlette(routes=[Route("/v1/{tenant}/complete", complete, methods=["POST"])])
