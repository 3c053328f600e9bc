# expect: 21 CTX505
"""Whatever the methods are called, one side counts up under a combined digest and the
other counts down under a single item's digest: the count never reaches zero."""
import hashlib


def combined(digests):
    return hashlib.sha256("|".join(digests).encode()).hexdigest()


class Shelf:
    def __init__(self):
        self.counts: dict[str, int] = {}

    def take(self, items):
        k = combined([it.digest for it in items])
        self.counts[k] = self.counts.get(k, 0) + 1
        return k

    def give_back(self, item):
        k = item.digest
        if k in self.counts:
            self.counts[k] -= 1
            if self.counts[k] == 0:
                del self.counts[k]
