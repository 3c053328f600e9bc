# expect: 24 CTX206
"""Retriever that embeds queries on a pool inside the request's span."""
from concurrent.futures import ThreadPoolExecutor

from opentelemetry import trace

tracer = trace.get_tracer("retriever")
_pool = ThreadPoolExecutor(max_workers=8)


class Retriever:
    def __init__(self, model) -> None:
        self.model = model

    def _embed(self, query: str) -> list[float]:
        with tracer.start_as_current_span("embed"):  # should nest under "retrieve"
            return self.model.encode(query)

    def _lookup(self, vector: list[float]) -> list[str]:
        return []

    def retrieve(self, query: str) -> list[str]:
        with tracer.start_as_current_span("retrieve"):
            future = _pool.submit(self._embed, query)
            return self._lookup(future.result())
