# expect: none
"""A strategy holding two config values, built once by the engine that owns it,
with a two-entry cache: at most two entries on an object that lives as long as
the engine."""
from functools import lru_cache


class DecodeStrategy:
    def __init__(self, block_size: int, interval: int):
        self.block_size = block_size
        self.interval = interval

    @lru_cache(maxsize=2)
    def prealloc(self, is_decoding: bool) -> int:
        return min(self.interval, self.block_size) if is_decoding else 0


class Engine:
    def __init__(self, block_size: int, interval: int):
        self.strategy = DecodeStrategy(block_size, interval)

    def step(self, batch, is_decoding: bool):
        return batch[: self.strategy.prealloc(is_decoding)]
