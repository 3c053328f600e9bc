# expect: none
"""The old connection is replaced on every path after its close task starts: inside a
`with` block, and after an `if`/`else` that both fall through to the rebind."""
import asyncio
import threading


class Conn:
    async def aclose(self) -> None:
        await asyncio.sleep(0)


class Router:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._upstreams: dict[str, Conn] = {}

    def reconnect(self, name: str, force: bool) -> None:
        with self._lock:
            if force:
                asyncio.create_task(self._upstreams[name].aclose())
            else:
                print("graceful")
            self._upstreams[name] = Conn()

    def drop(self, name: str) -> None:
        asyncio.ensure_future(self._upstreams[name].aclose())
        del self._upstreams[name]
