# expect: 20 CTX103 set() on a ContextVar held in self._tenant happens in a helper that drops the token: the consumer thread keeps the previous job's tenant after each job
import contextvars
import logging

log = logging.getLogger("embed-worker")


class EmbeddingJobRunner:
    """One runner per consumer thread; the storage layer reads the tenant from the runner."""

    def __init__(self, embed, store) -> None:
        self._tenant = contextvars.ContextVar("worker_tenant", default=None)
        self._embed = embed
        self._store = store

    def current_tenant(self):
        return self._tenant.get()

    def _bind_worker_tenant(self, tenant_id: str) -> None:
        self._tenant.set(tenant_id)

    def handle(self, job: dict) -> int:
        self._bind_worker_tenant(job["tenant_id"])
        vectors = self._embed(job["texts"])
        written = self._store.upsert(self.current_tenant(), vectors)
        log.info("job %s wrote %d vectors", job["id"], written)
        return written
