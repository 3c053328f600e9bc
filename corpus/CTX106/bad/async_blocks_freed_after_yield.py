# expect: 21 CTX106
"""Reserves KV-cache blocks for one request for the duration of a decode."""
from contextlib import asynccontextmanager


class BlockPool:
    def __init__(self, n: int):
        self.free = list(range(n))

    def take(self, k: int) -> list[int]:
        taken, self.free = self.free[:k], self.free[k:]
        return taken

    def release(self, blocks: list[int]) -> None:
        self.free.extend(blocks)


@asynccontextmanager
async def reserved_blocks(pool: BlockPool, request_id: str, n_blocks: int):
    blocks = pool.take(n_blocks)
    yield blocks
    pool.release(blocks)
