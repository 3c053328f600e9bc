# expect: none
"""The model lives on the application; reaching it through the request is fine."""
from fastapi import FastAPI, Request

app = FastAPI()
_model = None


@app.post("/v1/generate")
async def generate(request: Request) -> dict:
    global _model
    if _model is None:
        _model = request.app.state.model
    body = await request.json()
    return {"text": _model(body["prompt"])}
