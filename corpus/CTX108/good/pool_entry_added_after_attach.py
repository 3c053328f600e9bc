# expect: none
"""A connection pool fills itself from the peer's attach events: the handler first
configures the channel the peer already opened (an awaited call passed the channel
id itself), then records it, then keeps talking to it. The peer knows the channel
before the entry exists and its detach event removes it, so a cancellation at the
later awaits strands nothing: the entry is meant to outlive this handler."""
import asyncio


class Channel:
    def __init__(self, link, session_id: str) -> None:
        self.link = link
        self.session_id = session_id


class ChannelPool:
    def __init__(self, link) -> None:
        self.link = link
        self._lock = asyncio.Lock()
        self._by_id: dict[str, Channel] = {}

    async def on_attached(self, event: dict) -> None:
        session_id = event["sessionId"]
        await self.link.call("Channel.configure", session_id=session_id)
        async with self._lock:
            chan = Channel(self.link, session_id)
            self._by_id[session_id] = chan
        await self.link.call("Channel.subscribe", session_id=chan.session_id)
        await self.link.call("Metrics.enable", session_id=session_id)

    async def on_detached(self, event: dict) -> None:
        async with self._lock:
            self._by_id.pop(event["sessionId"], None)
