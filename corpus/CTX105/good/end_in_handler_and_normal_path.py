# expect: none
"""Twin of bad/end_skipped_when_call_raises.py: the request runs in a `try` whose
handler records the error and ends the span before re-raising; the normal path ends
it after the `try`. (Nothing between start and the `try` can raise.)"""
from opentelemetry import trace
from opentelemetry.trace import Status, StatusCode

tracer = trace.get_tracer("rerank")


def rerank(session, url: str, query: str, docs: list[str]) -> list[float]:
    rr_span = tracer.start_span("rerank.request")
    rr_span.set_attribute("rerank.documents", len(docs))
    try:
        resp = session.post(url, json={"query": query, "documents": docs}, timeout=10)
        resp.raise_for_status()
        scores = resp.json()["scores"]
    except Exception as exc:
        rr_span.record_exception(exc)
        rr_span.set_status(Status(StatusCode.ERROR))
        rr_span.end()
        raise
    rr_span.end()
    return scores
