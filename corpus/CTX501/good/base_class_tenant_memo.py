# expect: none
"""The tenant is set by a base class's constructor in this file and no method switches
it: every instance of the subclass answers for one tenant, so its own memo needs no
tenant in the key."""


class TenantBound:
    def __init__(self, tenant_id: str):
        self.tenant_id = tenant_id


class PromptRenderer(TenantBound):
    def __init__(self, tenant_id: str, engine):
        super().__init__(tenant_id)
        self.engine = engine
        self._rendered_cache = {}

    def render(self, template: str):
        hit = self._rendered_cache.get(template)
        if hit is None:
            hit = self.engine.render(self.tenant_id, template)
            self._rendered_cache[template] = hit
        return hit
