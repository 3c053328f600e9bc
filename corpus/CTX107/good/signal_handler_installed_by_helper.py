# expect: none
# A worker installs its signal handlers through its own helper, which hands the
# handler parameter (bound with functools.partial) to loop.add_signal_handler: the
# handler is the shutdown sequence, and the drain task it starts cannot be awaited
# by anyone (a signal handler cannot await).
import asyncio
import logging
import signal
from functools import partial

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.tasks: set[asyncio.Task] = set()
        self.accepting = True

    def install(self) -> None:
        self._add_signal_handler(signal.SIGINT, self.drain_on_signal)
        self._add_signal_handler(signal.SIGTERM, handler=self.drain_on_signal)

    def _add_signal_handler(self, signum: int, handler) -> None:
        try:
            self.loop.add_signal_handler(signum, partial(handler, signum))
        except NotImplementedError:
            log.debug("no signal handlers on this platform")

    def drain_on_signal(self, signum: int) -> None:
        self.accepting = False
        self.loop.create_task(self._drain(signum))

    async def _drain(self, signum: int) -> None:
        await asyncio.wait_for(asyncio.gather(*self.tasks), timeout=30)
        log.info("drained on %s", signum)
