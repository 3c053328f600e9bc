# expect: 8 CTX105
"""Marks a cache miss with a span that nobody ends."""
from opentelemetry import trace


def lookup(cache: dict, key: str):
    if key not in cache:
        trace.get_tracer(__name__).start_span("kv-cache-miss", attributes={"key": key})
        return None
    return cache[key]
