# expect: none
"""KV-cache blocks released in finally, also on cancellation."""
from contextlib import asynccontextmanager


@asynccontextmanager
async def reserved_blocks(pool, request_id: str, n_blocks: int):
    blocks = pool.take(n_blocks)
    try:
        yield blocks
    finally:
        pool.release(blocks)
