# expect: 10 CTX105
"""Reranker client: the span is ended after the HTTP call succeeds; a timeout or a 5xx
raised by `raise_for_status()` leaves it open."""
from opentelemetry import trace

tracer = trace.get_tracer("rerank")


def rerank(session, url: str, query: str, docs: list[str]) -> list[float]:
    rr_span = tracer.start_span("rerank.request")
    rr_span.set_attribute("rerank.documents", len(docs))
    resp = session.post(url, json={"query": query, "documents": docs}, timeout=10)
    resp.raise_for_status()
    scores = resp.json()["scores"]
    rr_span.end()
    return scores
