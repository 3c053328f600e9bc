# expect: 33 CTX107
# Reported in review of stop 22's exemptions: a same-named method of another class stores the callback instead of installing it.
# (A real bug the first version of the exemption silenced.)
import asyncio
import signal


class Shutdown:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def register(self, handler) -> None:
        self.loop.add_signal_handler(signal.SIGTERM, handler)


class Reloader:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.callbacks = []

    def register(self, handler) -> None:
        # only stores the callback: it is called at normal run time on file changes
        self.callbacks.append(handler)

    def start(self) -> None:
        self.register(self.reload)

    async def _fetch(self) -> dict:
        await asyncio.sleep(0)
        return {}

    def reload(self) -> None:
        self.loop.create_task(self._fetch())   # dropped task, at normal run time
