# expect: 17 CTX104
"""An async flush wraps the awaited export in `except Exception:` and detaches after
it. A cancellation or timeout raises `asyncio.CancelledError` (a BaseException) at the
await: it passes the handler and skips the detach."""
import logging

from opentelemetry import context

log = logging.getLogger(__name__)


class AsyncFlusher:
    def __init__(self, exporter):
        self._exporter = exporter

    async def flush(self, batch):
        token = context.attach(context.set_value("suppress_instrumentation", True))
        try:
            await self._exporter.export(batch)
        except Exception:
            log.exception("export failed")
        context.detach(token)
