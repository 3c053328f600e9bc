# expect: none
"""The handler never suspends and its whole body is a catch-all `try`: nothing it
raises is lost with the dropped task."""
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
        try:
            self.store.finalize(bench.id)
            self.store.dump_logs(bench.id)
        except Exception as e:
            log.error("failed to stop %s: %s", bench.id, e)
        finally:
            self.active = None
