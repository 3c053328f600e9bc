# expect: 13 CTX105
"""A span started by a stream and never ended is CTX105's finding, not CTX110's."""
from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from opentelemetry import trace

app = FastAPI()
tracer = trace.get_tracer(__name__)


async def token_events(engine, prompt: str):
    # the span is never ended at all: a span-lifecycle bug (CTX105)
    span = tracer.start_span("generate")
    async for token in engine.generate(prompt):
        span.add_event("token")
        yield token


@app.post("/v1/stream")
async def stream(body: dict):
    return StreamingResponse(token_events(app.state.engine, body["prompt"]))
