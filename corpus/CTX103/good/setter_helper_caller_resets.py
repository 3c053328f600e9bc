# expect: none
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

    def _enter_tenant(self, tenant_id: str) -> contextvars.Token:
        return self._tenant.set(tenant_id)

    def handle(self, job: dict) -> int:
        token = self._enter_tenant(job["tenant_id"])
        try:
            vectors = self._embed(job["texts"])
            written = self._store.upsert(self.current_tenant(), vectors)
        finally:
            self._tenant.reset(token)
        log.info("job %s wrote %d vectors", job["id"], written)
        return written
