# expect: none
"""The task closes an object its owner is letting go of: the entry is replaced right
after, or was popped from the table first. Nobody is left to consume the close."""
import asyncio


class Session:
    def __init__(self, sid: str) -> None:
        self.sid = sid

    async def close(self) -> None:
        await asyncio.sleep(0)


class SessionManager:
    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}

    def add_or_restart(self, sid: str) -> Session:
        if sid in self._sessions:
            asyncio.create_task(self._sessions[sid].close())
        self._sessions[sid] = Session(sid)
        return self._sessions[sid]

    def evict(self, sid: str) -> None:
        old = self._sessions.pop(sid)
        asyncio.create_task(old.close())
