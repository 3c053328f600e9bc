# expect: 10 CTX105
"""Token streamer for an SSE endpoint: the span is ended after the `async for`; a client
that disconnects makes the server `aclose()` the generator at the `yield`."""
from opentelemetry import trace

tracer = trace.get_tracer(__name__)


async def stream_tokens(engine, prompt: str):
    gen_span = tracer.start_span("engine.generate")
    n = 0
    async for token in engine.generate(prompt):
        n += 1
        yield token
    gen_span.set_attribute("gen_ai.usage.output_tokens", n)
    gen_span.end()
