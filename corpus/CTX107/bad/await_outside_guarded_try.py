# expect: 21 CTX107
# The first await is guarded, but the write after the try is not: its failure is
# never retrieved, and shutdown cannot await the dropped task.
import asyncio
import logging

log = logging.getLogger(__name__)


async def record_usage(db, call_id, tokens):
    try:
        await db.refresh_quota(call_id)
    except Exception:
        log.warning("quota refresh failed")
    await db.insert_usage(call_id, tokens)
    return tokens


async def handle_turn(db, call_id, text):
    tokens = len(text.split())
    asyncio.create_task(record_usage(db, call_id, tokens))
    return text.upper()
