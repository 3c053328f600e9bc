import contextlib


@contextlib.asynccontextmanager
async def leased_slot(pool, tenant):
    slot = await pool.acquire(tenant)
    try:
        async with slot.lock:
            slot.mark_busy()
            value = yield slot
    finally:
        await pool.release(slot)
