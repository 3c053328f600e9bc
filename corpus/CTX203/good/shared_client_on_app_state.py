# expect: none
"""The application state holds one client made at startup with the service's own key;
each request passes its tenant's key per call and keeps per-request data on
`request.state`, which ends with the request."""
import contextlib
import os

from openai import AsyncOpenAI
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


@contextlib.asynccontextmanager
async def lifespan(app):
    app.state.upstream = AsyncOpenAI(api_key=os.environ["SERVICE_KEY"], base_url="https://llm.internal/v1")
    try:
        yield
    finally:
        await app.state.upstream.close()


async def chat(request: Request) -> JSONResponse:
    body = await request.json()
    request.state.tenant_key = request.headers["x-api-key"]
    client = request.app.state.upstream.with_options(api_key=request.state.tenant_key)
    request.app.state.served = request.app.state.served + 1 if hasattr(request.app.state, "served") else 1
    resp = await client.chat.completions.create(model=body["model"], messages=body["messages"])
    return JSONResponse(resp.model_dump())


app = Starlette(routes=[Route("/v1/chat", chat, methods=["POST"])], lifespan=lifespan)
