# expect: 14 CTX109
"""The handler binds the tenant and hands the token to the stream generator it returns;
the generator resets it after its yields, in whatever Context closes it."""
from contextvars import ContextVar

current_tenant: ContextVar[str | None] = ContextVar("current_tenant", default=None)


class Gateway:
    def __init__(self, engine):
        self.engine = engine

    def handle(self, req):
        token = current_tenant.set(req.tenant_id)
        chunks = self.engine.generate(req.prompt)
        return self._relay(chunks, token)

    async def _relay(self, chunks, token):
        try:
            async for chunk in chunks:
                yield chunk
        finally:
            current_tenant.reset(token)
