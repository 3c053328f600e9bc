# expect: 20 CTX402
"""Next to good/named_tuple_value_cache.py: this NamedTuple carries a model object, not
plain values, and a new one is built per request: the class-wide cache keeps every
model it was keyed on alive."""
from functools import lru_cache
from typing import NamedTuple

from torch import nn


class Encoder(nn.Module):
    def forward(self, x):
        return x


class Batch(NamedTuple):
    model: Encoder
    size: int

    @lru_cache(maxsize=None)
    def plan(self, width: int):
        return (self.size, width)


def make_batch(size: int) -> Batch:
    return Batch(Encoder(), size)
