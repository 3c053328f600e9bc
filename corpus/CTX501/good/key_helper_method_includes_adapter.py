# expect: none
import hashlib


class Cache:
    def __init__(self, engine):
        self.engine = engine
        self.active_adapter = None
        self._c = {}

    def use(self, a):
        self.active_adapter = a

    def _key(self, prompt):
        aid = self.active_adapter.adapter_id if self.active_adapter else 0
        return (aid, hashlib.sha1(prompt.encode()).hexdigest())

    def score(self, prompt):
        key = self._key(prompt)
        if key not in self._c:
            self._c[key] = self.engine.score(prompt, adapter=self.active_adapter)
        return self._c[key]
