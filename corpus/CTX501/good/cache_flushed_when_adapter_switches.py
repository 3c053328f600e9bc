# expect: none
import hashlib


class Scorer:
    def __init__(self, engine):
        self.engine = engine
        self.active_adapter = None
        self._c = {}

    def use(self, a):
        self.active_adapter = a
        self._c.clear()  # cache is per-adapter: flushed on switch

    def score(self, prompt):
        key = hashlib.sha1(prompt.encode()).hexdigest()
        if key not in self._c:
            self._c[key] = self.engine.score(prompt, adapter=self.active_adapter)
        return self._c[key]
