# expect: 22 CTX106
# Reported in review of stop 22's exemptions: the flag is made truthy before the yield by tuple unpacking.
# (A real bug the first version of the exemption silenced.)
from contextlib import contextmanager


class Pool:
    def __init__(self) -> None:
        self.free = ["a", "b"]

    def lease(self) -> str:
        return self.free.pop()

    def release(self, item: str) -> None:
        self.free.append(item)


@contextmanager
def leased(pool: Pool):
    leased_ok = False
    item, leased_ok = pool.lease(), True
    yield item
    if leased_ok:
        pool.release(item)
