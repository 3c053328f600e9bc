# expect: none
"""The bridge registers a synchronous exit hook that closes its async transport: at
interpreter exit, when the loop is still running, the close is scheduled on it as a
last best-effort step. It is the shutdown itself; nothing is left to await it."""
import asyncio
import atexit
import weakref


class ToolBridge:
    def __init__(self, transport):
        self._transport = transport
        self._open = True
        atexit.register(self._close_at_exit)

    async def aclose(self) -> None:
        self._open = False
        await self._transport.close()

    def _close_at_exit(self) -> None:
        if not self._open:
            return
        loop = asyncio.get_event_loop()
        if loop.is_running():
            loop.create_task(self.aclose())
        else:
            loop.run_until_complete(self.aclose())


def _drop_stream(stream) -> None:
    asyncio.ensure_future(stream.aclose())


class StreamHandle:
    def __init__(self, stream):
        self.stream = stream
        weakref.finalize(self, _drop_stream, stream)


@atexit.register
def _flush_spool() -> None:
    asyncio.get_event_loop().create_task(_SPOOL.flush())


class _Spool:
    async def flush(self) -> None:
        await asyncio.sleep(0)


_SPOOL = _Spool()
