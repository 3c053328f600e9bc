# expect: none
"""Project decorators that look like memoizers but keep nothing class-wide: one
stores results in the instance's own dict, the other only times the call. The
reader is still built per batch; neither keeps it alive."""
import functools
import time


def per_instance(fn):
    @functools.wraps(fn)
    def call(self, *args):
        store = self.__dict__.setdefault("_results", {})
        key = (fn.__name__, args)
        if key not in store:
            store[key] = fn(self, *args)
        return store[key]

    return call


def timed(fn):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            print(fn.__name__, time.perf_counter() - start)

    return call


class ShardReader:
    def __init__(self, blob: bytes, vocab):
        self.lines = blob.split(b"\n")
        self.vocab = vocab

    @per_instance
    def tokens_in(self, line_no: int) -> int:
        return len(self.vocab.tokenize(self.lines[line_no]))

    @timed
    def total(self) -> int:
        return sum(self.tokens_in(i) for i in range(len(self.lines)))


def count_tokens(shards, vocab) -> int:
    return sum(ShardReader(blob, vocab).total() for blob in shards)
