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


def serve(pool, jobs: list) -> list:
    # each job runs on a pooled worker thread (an entry point: the leak is manifest)
    return [pool.submit(embed_batch, tenant, texts, Model()).result() for tenant, texts in jobs]


def behaviour():
    from concurrent.futures import ThreadPoolExecutor
    first = embed_batch("a", ["xy", "z"], Model())
    with ThreadPoolExecutor(max_workers=1) as pool:
        served = serve(pool, [("b", ["q"])])
    return first, current_tenant.get(), served


def comment_kept(text: str) -> bool:
    return any("# keep: raises on an oversized batch" in ln and "model.encode" in ln for ln in text.splitlines())
