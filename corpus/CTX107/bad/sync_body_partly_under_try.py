# expect: 17 CTX107
"""The handler never suspends, but its first statement sits outside the `try`: if it
raises, the error is stored on a task nobody holds and is never seen."""
import asyncio
import logging

log = logging.getLogger(__name__)


class BenchmarkManager:
    def __init__(self, store):
        self.store = store
        self.active = None

    def on_event(self, bench):
        if bench.stopped:
            asyncio.create_task(self._handle_stop(bench))

    async def _handle_stop(self, bench):
        self.store.finalize(bench.id)
        try:
            self.store.dump_logs(bench.id)
        except Exception as e:
            log.error("failed to dump %s: %s", bench.id, e)
