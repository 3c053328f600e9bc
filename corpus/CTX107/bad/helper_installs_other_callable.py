# expect: 27 CTX107
# Near miss of the helper-installed signal handler: the helper takes a callback but
# installs its own fixed handler and only stores the callback for later, normal-time
# use, so the task the callback starts runs at normal time and is dropped.
import asyncio
import signal


class Service:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.on_reload = None

    def setup(self, callback) -> None:
        self.on_reload = callback
        self.loop.add_signal_handler(signal.SIGTERM, self.loop.stop)

    def start(self) -> None:
        self.setup(self.reload_config)

    async def _fetch_config(self) -> dict:
        await asyncio.sleep(0)
        return {"reloaded": True}

    def reload_config(self) -> None:
        # called through self.on_reload whenever the config file changes
        self.loop.create_task(self._fetch_config())
