# expect: 28 CTX107
"""Kind: the same closure-held local instance, but its coroutine lets the listener's
errors escape: the task's exception is never retrieved. Resolving the local instance to
its class must not make every such task look handled."""
import asyncio
import logging

log = logging.getLogger(__name__)


class PushUpdater:
    def __init__(self, source, listener):
        self.source = source
        self.listener = listener
        self.active = False

    async def state_updated(self):
        playing = await self.source.playing()
        self.listener.update(playing)


def setup(source, listener):
    push_updater = PushUpdater(source, listener)

    class StateListener:
        def playing(self):
            if push_updater.active:
                asyncio.ensure_future(push_updater.state_updated())

    return push_updater, StateListener()
