# expect: 25 CTX402
"""A project decorator factory hands back functools' cache: `@memoize(...)` is
`lru_cache` by another name, and the reader is built for every batch job, so the
class-wide cache pins every reader (and the shard bytes it holds)."""
import functools


def memoize(maxsize=None):
    """Project-wide memoization switch (tests patch it to a no-op)."""
    return functools.lru_cache(maxsize=maxsize)


def _noop(fn):
    return fn


class ShardReader:
    """Reads token counts out of one shard of a dataset."""

    def __init__(self, blob: bytes, vocab):
        self.blob = blob
        self.vocab = vocab
        self.lines = blob.split(b"\n")

    @memoize(maxsize=4096)
    def tokens_in(self, line_no: int) -> int:
        return len(self.vocab.tokenize(self.lines[line_no]))


def count_tokens(shards, vocab) -> int:
    total = 0
    for blob in shards:
        reader = ShardReader(blob, vocab)
        total += sum(reader.tokens_in(i) for i in range(len(reader.lines)))
    return total
