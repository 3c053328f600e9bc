# expect: none
"""Fixed twin of bad/generator_ends_span_after_loop.py: the span is ended in `finally`,
which `close()` (GeneratorExit at the `yield`) and errors also run."""
from opentelemetry import trace

tracer = trace.get_tracer("embedder")


def iter_embeddings(model, texts, batch_size=32):
    attrs = {"embedding.model": model.name, "embedding.count": len(texts)}
    batch_span = tracer.start_span("embed.batches", attributes=attrs)
    try:
        for i in range(0, len(texts), batch_size):
            vectors = model.encode(texts[i:i + batch_size])
            batch_span.add_event("batch", {"offset": i})
            yield from vectors
    finally:
        batch_span.end()
