# expect: 13 CTX110
"""OpenAI-compatible passthrough: streams the upstream body as it arrives."""
import httpx
from fastapi import FastAPI
from fastapi.responses import StreamingResponse

app = FastAPI()
client = httpx.AsyncClient()


async def passthrough(url: str, payload: dict):
    request = client.build_request("POST", url, json=payload)
    upstream = await client.send(request, stream=True)
    async for line in upstream.aiter_lines():
        yield line + "\n"


@app.post("/v1/chat/completions")
async def completions(payload: dict):
    return StreamingResponse(passthrough(app.state.upstream_url, payload))
