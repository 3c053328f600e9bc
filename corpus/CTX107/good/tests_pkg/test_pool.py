# expect: none
"""A test that keeps a connection busy in a background task while it exercises the pool:
the test's loop is closed when it ends, and nothing outlives it."""
import asyncio

import pytest


@pytest.mark.asyncio
async def test_pool_waits_for_a_free_connection(pool):
    async def hold():
        async with pool.acquire():
            await asyncio.sleep(0.1)

    asyncio.create_task(hold())
    async with pool.acquire() as conn:
        assert conn is not None
