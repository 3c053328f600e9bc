# expect: none
# An executor that wraps another one: its `submit` is the executor protocol itself,
# so whether a Context is copied is up to its callers, as with ThreadPoolExecutor.
from concurrent.futures import Executor, ThreadPoolExecutor


class SwappableExecutor(Executor):
    def __init__(self, workers: int = 1):
        self._inner = ThreadPoolExecutor(max_workers=workers)

    def swap(self, workers: int) -> None:
        old, self._inner = self._inner, ThreadPoolExecutor(max_workers=workers)
        old.shutdown(wait=False)

    def submit(self, fn, /, *args, **kwargs):
        return self._inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait=True, *, cancel_futures=False):
        self._inner.shutdown(wait=wait, cancel_futures=cancel_futures)
