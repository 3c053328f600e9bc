# expect: none
"""The coroutine adds the session to the heartbeat set through a helper, but only when
it is not there yet: the entry belongs to the session (every message re-checks it, and
closing the session discards it), not to one `send` call."""
import asyncio


class SessionPool:
    def __init__(self, transport) -> None:
        self.transport = transport
        self._alive: set[str] = set()
        self._beat: asyncio.Task | None = None

    def _track(self, session_id: str) -> None:
        self._alive.add(session_id)

    async def send(self, session_id: str, payload: bytes) -> None:
        if session_id not in self._alive:
            self._track(session_id)
        await self.transport.write(session_id, payload)

    def close(self, session_id: str) -> None:
        self._alive.discard(session_id)
