# expect: 27 CTX206
"""Embedding service that scores batches on a thread pool; the scorer tags rows by tenant."""
import contextvars
from concurrent.futures import ThreadPoolExecutor

tenant: contextvars.ContextVar[str] = contextvars.ContextVar("tenant", default="anonymous")


def _score(rows: list[str]) -> list[dict]:
    owner = tenant.get()
    return [{"tenant": owner, "len": len(r)} for r in rows]


class Scorer:
    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=4)

    def _run(self, rows: list[str]) -> list[dict]:
        return _score(rows)

    def score(self, rows: list[str], tenant_id: str) -> list[dict]:
        token = tenant.set(tenant_id)
        try:
            if not rows:
                return []
            # the worker thread sees tenant's default, not tenant_id
            future = self._pool.submit(self._run, rows)
            return future.result()
        finally:
            tenant.reset(token)
