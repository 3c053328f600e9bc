# expect: 11 CTX105
"""Embedding batch streamer: the span is ended after the generator's loop, so a caller
that stops after the first batches (break, close(), a dropped HTTP stream) never ends it."""
from opentelemetry import trace

tracer = trace.get_tracer("embedder")


def iter_embeddings(model, texts, batch_size=32):
    attrs = {"embedding.model": model.name, "embedding.count": len(texts)}
    batch_span = tracer.start_span("embed.batches", attributes=attrs)
    for i in range(0, len(texts), batch_size):
        vectors = model.encode(texts[i:i + batch_size])
        batch_span.add_event("batch", {"offset": i})
        yield from vectors
    batch_span.end()
