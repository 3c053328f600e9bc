# expect: 25 CTX107
# expect: 31 CTX107
"""Near misses of the discarded-close exemption: the entry is rebound only on the other
branch (on the `drain` path the client stays in the table), and the `pop` is on an
object that is not a container (a helper's result). The close tasks are dropped."""
import asyncio


class Client:
    async def aclose(self) -> None:
        await asyncio.sleep(0)


class ClientPool:
    def __init__(self) -> None:
        self._clients: dict[str, Client] = {}

    def rotate(self, key: str) -> None:
        old = self._clients.pop(key)
        asyncio.create_task(old.aclose())
        self._clients[key] = Client()

    def maybe_close(self, key: str, drain: bool) -> None:
        if drain:
            asyncio.create_task(self._clients[key].aclose())
        else:
            self._clients[key] = None

    def retire(self, key: str) -> None:
        victim = self.pick_victim(key).pop()
        asyncio.create_task(victim.aclose())

    def pick_victim(self, key: str):
        return self._clients[key]
