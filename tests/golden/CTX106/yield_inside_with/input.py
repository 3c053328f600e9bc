import contextlib


@contextlib.asynccontextmanager
async def leased_slot(pool, tenant):
    slot = await pool.acquire(tenant)
    async with slot.lock:
        slot.mark_busy()
        value = yield slot
    await pool.release(slot)
