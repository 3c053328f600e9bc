# expect: none
"""Kind: the coroutine is a method of a local instance of a class of this module, read from
a closure (pyatv's RAOP setup: `push_updater = PushUpdater(...)`, then a listener class
defined in the same function schedules `push_updater.state_updated()`). That method wraps
its awaited work in `try/except Exception` and logs: no failure is lost with the task."""
import asyncio
import logging

log = logging.getLogger(__name__)


class PushUpdater:
    def __init__(self, source, listener):
        self.source = source
        self.listener = listener
        self.active = False

    async def state_updated(self):
        try:
            playing = await self.source.playing()
            self.listener.update(playing)
        except Exception as ex:  # broad on purpose: a push update is best effort
            log.debug("play status error: %s", ex)


def setup(source, listener):
    push_updater = PushUpdater(source, listener)

    class StateListener:
        def playing(self):
            if push_updater.active:
                asyncio.ensure_future(push_updater.state_updated())

    return push_updater, StateListener()
