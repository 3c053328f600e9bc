# expect: none
# A state manager lends the caller its state under a per-token lock and writes the
# caller's edits back only when the caller's block succeeded (commit-on-success); the
# lock is released by `async with` on every path. After the yield, the write-back's
# answer about a pending close is only tested, never undone.
import asyncio
from contextlib import asynccontextmanager, contextmanager


class DiskStateManager:
    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._states: dict[str, dict] = {}

    async def get_state(self, token: str) -> dict:
        return dict(self._states.get(token, {}))

    async def set_state(self, token: str, state: dict) -> None:
        self._states[token] = state

    @asynccontextmanager
    async def modify_state(self, token: str):
        token = token.strip()
        lock = self._locks.setdefault(token, asyncio.Lock())
        async with lock:
            state = await self.get_state(token)
            yield state
            await self.set_state(token, state)


class Protocol:
    def close_expected(self) -> bool:
        return False


class Connection:
    def __init__(self) -> None:
        self.protocol = Protocol()
        self.wait_for_close = False

    @contextmanager
    def send_context(self):
        try:
            yield
        except Exception:
            self.wait_for_close = False
            raise
        else:
            if self.protocol.close_expected():
                self.wait_for_close = True
