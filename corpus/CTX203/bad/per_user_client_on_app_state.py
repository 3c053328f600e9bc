# expect: 21 CTX203
"""Chat proxy that lazily creates the upstream client on the application state; the
client is built with the first caller's API key and then used for every tenant."""
from openai import AsyncOpenAI
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


async def chat(request: Request) -> JSONResponse:
    body = await request.json()
    client = getattr(request.app.state, "upstream", None)
    if client is None:
        client = AsyncOpenAI(
            api_key=request.headers["x-api-key"],
            base_url="https://llm.internal/v1",
        )
        # lives as long as the application: the next tenant's requests go out with
        # this tenant's key
        request.app.state.upstream = client
    resp = await client.chat.completions.create(model=body["model"], messages=body["messages"])
    return JSONResponse(resp.model_dump())


app = Starlette(routes=[Route("/v1/chat", chat, methods=["POST"])])
