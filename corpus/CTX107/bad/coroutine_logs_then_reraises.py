# expect: 21 CTX107
"""The coroutine logs a failure but raises it again: nobody retrieves it."""
import asyncio
import logging

log = logging.getLogger(__name__)


class SpendWriter:
    def __init__(self, db) -> None:
        self._db = db

    async def _write(self, key: str, cost: float) -> None:
        try:
            await self._db.execute("UPDATE spend SET total = total + $1 WHERE key = $2", cost, key)
        except Exception:
            log.error("spend write failed for %s", key)
            raise

    def record(self, key: str, cost: float) -> None:
        asyncio.create_task(self._write(key, cost))
