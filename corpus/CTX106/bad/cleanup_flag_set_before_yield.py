# expect: 24 CTX106
# Near miss of the falsy-flag exemption: the flag is set True before the `yield`
# (the lease was taken), so the release under `if leased:` is real cleanup, and an
# exception in the body skips it.
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
    item = pool.lease()
    leased_ok = True
    yield item
    if leased_ok:
        pool.release(item)
