# expect: none
"""The with statement around the yield does the cleanup (pylint W0135's false positive)."""
import threading
from contextlib import contextmanager

_lock = threading.Lock()


@contextmanager
def exclusive_session(factory):
    with _lock, factory() as session:
        yield session


@contextmanager
def timed(stats: dict, name: str):
    import time
    start = time.perf_counter()
    yield
    stats[name] = time.perf_counter() - start
