# expect: 54 CTX108
# expect: 55 CTX108
"""The scanner collects only stale parts a receiver acknowledged: a part whose
`announce` was cancelled before notifying is never acknowledged, so never collected."""
import asyncio
import contextvars
import time


class PartRendezvous:
    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._parts: dict[str, dict] = {}
        self._stamped: dict[str, float] = {}
        self._scanner: asyncio.Task | None = None
        self._releasing: dict[str, asyncio.Task] = {}
        self._lock = asyncio.Lock()

    def _stamp(self, request_id: str) -> None:
        self._stamped[request_id] = time.monotonic()
        if self._scanner is None or self._scanner.done():
            self._scanner = asyncio.get_running_loop().create_task(self._scan(), context=contextvars.Context())

    async def _scan(self) -> None:
        while True:
            await asyncio.sleep(self.timeout / 4)
            now = time.monotonic()
            old = [rid for rid, at in self._stamped.items()
                   if now - at > self.timeout and self._parts[rid].get("acked")]
            for rid in old:
                self._start_release(rid)

    def _start_release(self, request_id: str) -> None:
        if request_id in self._releasing:
            return
        self._releasing[request_id] = asyncio.create_task(self._release_old(request_id))

    async def _release_old(self, request_id: str) -> None:
        try:
            await self._drop(request_id)
        finally:
            self._releasing.pop(request_id, None)

    async def _drop(self, request_id: str) -> None:
        await self._forget(request_id)

    async def _forget(self, request_id: str) -> None:
        async with self._lock:
            self._parts.pop(request_id, None)
            self._stamped.pop(request_id, None)

    async def announce(self, request_id: str, meta: dict, notify) -> None:
        async with self._lock:
            self._parts[request_id] = meta
            self._stamp(request_id)
        await notify(request_id)
