# expect: none
"""discord.py's `Message.delete(delay=...)`: the background task sleeps, then deletes and
ignores the HTTP error it anticipates. The sleep raises nothing but cancellation, and the
one failure the author expects is handled; nothing is lost with the reference."""
import asyncio


class HTTPException(Exception):
    pass


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
                try:
                    await self._delete_now()
                except HTTPException:
                    pass

            asyncio.create_task(delete_later(delay))
        else:
            await self._delete_now()
