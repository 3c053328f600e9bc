import hashlib


class Scorer:
    def __init__(self, engine):
        self.engine = engine
        self.active_adapter = None
        self.tenant_id = None
        self._c = {}

    def use(self, a):
        self.active_adapter = a

    def set_tenant(self, tenant_id):
        self.tenant_id = tenant_id
        self._c.clear()

    def score(self, prompt):
        key = hashlib.sha1(prompt.encode()).hexdigest()
        if key not in self._c:
            self._c[key] = self.engine.score(prompt, adapter=self.active_adapter, tenant=self.tenant_id)
        return self._c[key]
