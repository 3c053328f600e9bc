# expect: none
"""The guard lives in a helper each public method calls first: `_own_tenant` raises
unless the tenant given is the one this client was opened for, so the per-client
embedding cache is keyed on the text alone."""


class TenantMismatch(Exception):
    pass


class TenantEmbedder:
    def __init__(self, tenant_id: str, model):
        self._tenant = tenant_id
        self._model = model
        self._vector_cache: dict[str, list] = {}

    def _own_tenant(self, tenant_id: str) -> None:
        if tenant_id != self._tenant:
            raise TenantMismatch(tenant_id)

    async def embed(self, tenant_id: str, text: str) -> list:
        self._own_tenant(tenant_id)
        vec = self._vector_cache.get(text)
        if vec is None:
            vec = await self._model.embed(text, tenant=tenant_id)
            self._vector_cache[text] = vec
        return vec
