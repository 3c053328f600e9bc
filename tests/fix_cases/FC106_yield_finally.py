# fix: kept
# fix case (yield_in_finally): cleanup after the yield of a @contextmanager moves into finally
from contextlib import contextmanager

opened: list = []


@contextmanager
def session(name: str):
    opened.append(name)
    yield name
    opened.remove(name)  # release


def behaviour():
    with session("a") as s:
        inside = list(opened)
    with session("b"):
        both = list(opened)
    return s, inside, both, list(opened)
