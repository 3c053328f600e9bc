# expect: none
"""Fire-and-forget notifications whose coroutine logs every failure itself."""
import asyncio
import logging

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, client) -> None:
        self._client = client

    async def _send(self, user_id: str, event: dict) -> None:
        """Deliver one event; a failure is logged, never raised."""
        try:
            await self._client.post(f"/users/{user_id}/events", json=event)
        except Exception:
            log.exception("event delivery to %s failed", user_id)

    def notify(self, user_id: str, event: dict) -> None:
        asyncio.create_task(self._send(user_id, event))
