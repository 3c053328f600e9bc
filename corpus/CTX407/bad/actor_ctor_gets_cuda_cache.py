# expect: 29 CTX407
"""KV blocks handed to a Ray actor's constructor."""
import ray
import torch


class BlockCache:
    def __init__(self, n_blocks: int, dim: int) -> None:
        self.device = torch.device("cuda:0")
        self.keys = torch.zeros(n_blocks, dim, device=self.device)
        self.free = list(range(n_blocks))

    def take(self) -> int:
        return self.free.pop()


@ray.remote
class Scheduler:
    def __init__(self, cache: BlockCache) -> None:
        self.cache = cache

    def schedule(self) -> int:
        return self.cache.take()


def start(n_blocks: int):
    cache = BlockCache(n_blocks, 128)
    # the whole GPU tensor is pickled into the actor
    return Scheduler.remote(cache)
