# expect: 14 CTX204
# expect: 15 CTX204
# expect: 17 CTX204
import threading

_tl = threading.local()


class Handler:
    def __init__(self, tenant):
        self.tenant = tenant

    async def run(self, llm):
        if not hasattr(_tl, "tenant"):
            _tl.tenant = self.tenant
        out = await llm.ainvoke("hi")
        return _tl.tenant, out
