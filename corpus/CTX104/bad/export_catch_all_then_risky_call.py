# expect: 18 CTX104
"""The export is wrapped in `except Exception:`, but another call that can raise (a
metrics hook of unknown code) runs outside the `try`, before the detach: its error
leaves instrumentation suppressed for everything after it on this thread."""
import logging

from opentelemetry.context import attach, detach, set_value

log = logging.getLogger(__name__)


class BatchFlusher:
    def __init__(self, exporter, metrics):
        self._exporter = exporter
        self._metrics = metrics

    def flush(self, batch):
        token = attach(set_value("suppress_instrumentation", True))
        self._metrics.record_batch(len(batch))
        try:
            self._exporter.export(batch)
        except Exception:
            log.exception("export failed")
        detach(token)
