# expect: none
# Tasks started in a signal handler are the shutdown sequence itself: nothing
# outlives them to await them, and asyncio.run() cancels what is left.
import asyncio
import functools
import signal


class ModelServer:
    def __init__(self, rest, grpc):
        self.rest = rest
        self.grpc = grpc

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, lambda s=sig: asyncio.create_task(self.shutdown(s)))
        signal.signal(signal.SIGQUIT, lambda sig, frame: self.stop(sig))
        loop.add_signal_handler(signal.SIGHUP, functools.partial(self.reload, "hup"))

    async def shutdown(self, sig):
        await self.rest.stop(sig)
        await self.grpc.stop(sig)

    def stop(self, sig):
        asyncio.create_task(self.shutdown(sig))

    def reload(self, why):
        asyncio.ensure_future(self.rest.reload(why))
