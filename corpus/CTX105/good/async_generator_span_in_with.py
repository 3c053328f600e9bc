# expect: none
"""Fixed twin of bad/async_generator_ends_span_after_loop.py: the span is a `with`
block's, so leaving the generator early still ends it."""
from opentelemetry import trace

tracer = trace.get_tracer(__name__)


async def stream_tokens(engine, prompt: str):
    with tracer.start_as_current_span("engine.generate") as gen_span:
        n = 0
        async for token in engine.generate(prompt):
            n += 1
            yield token
        gen_span.set_attribute("gen_ai.usage.output_tokens", n)
