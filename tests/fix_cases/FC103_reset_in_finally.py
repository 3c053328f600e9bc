# fix: kept
# fix case (contextvar_reset_finally): a reset on the happy path only moves into finally; results stay
from contextvars import ContextVar

current_tenant: ContextVar = ContextVar("current_tenant", default=None)


class Model:
    def encode(self, texts: list) -> list:
        return [(current_tenant.get(), len(t)) for t in texts]


def embed_batch(tenant_id: str, texts: list, model) -> list:
    token = current_tenant.set(tenant_id)
    vectors = model.encode(texts)  # keep: raises on an oversized batch
    current_tenant.reset(token)
    return vectors


def behaviour():
    first = embed_batch("a", ["xy", "z"], Model())
    return first, current_tenant.get()


def comment_kept(text: str) -> bool:
    return any("# keep: raises on an oversized batch" in ln and "model.encode" in ln for ln in text.splitlines())
