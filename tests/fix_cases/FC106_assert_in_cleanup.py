# fix: same
# fix case (yield_in_finally): issue 35's aiostream break. The cleanup after the yield asserts what the with-body left; in `finally` that assert would run while the body's own exception propagates, and a bare AssertionError would replace it, so no fix is offered
from contextlib import contextmanager


class Recorder:
    def __init__(self) -> None:
        self.items: list = []
        self.open = False

    def clear(self) -> None:
        self.items.clear()


@contextmanager
def recording(rec: Recorder):
    rec.open = True
    yield rec
    assert rec.open, "closed inside the block"
    rec.open = False
    rec.clear()


def behaviour():
    rec = Recorder()
    with recording(rec) as r:
        r.items.append(1)
    try:
        with recording(rec):
            rec.open = False
            raise KeyError("the body's own error")
    except Exception as exc:  # the caller must see the body's KeyError, not an AssertionError
        return type(exc).__name__, rec.items
