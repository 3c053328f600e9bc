# expect: 23 CTX107
"""Next to good/delayed_delete_handles_http_error.py: after the sleep, the delete is
awaited with no handler at all, so its failure ends in a task nobody holds."""
import asyncio


class Message:
    def __init__(self, http, channel_id, message_id):
        self._http = http
        self.channel_id = channel_id
        self.id = message_id

    async def _delete_now(self) -> None:
        await self._http.delete_message(self.channel_id, self.id)

    async def delete(self, *, delay: float | None = None) -> None:
        if delay is not None:

            async def delete_later(delay: float) -> None:
                await asyncio.sleep(delay)
                await self._delete_now()

            asyncio.create_task(delete_later(delay))
        else:
            await self._delete_now()
