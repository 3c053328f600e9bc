# expect: none
"""Instrumentation is suppressed while a batch is exported. The only statement between
`attach()` and `detach()` is a `try` whose `except Exception:` handler logs and does not
re-raise, so every ordinary error is absorbed and the detach always runs (sync code:
only KeyboardInterrupt/SystemExit escape, and they end the process)."""
import logging

from opentelemetry.context import attach, detach, set_value

log = logging.getLogger(__name__)
_SUPPRESS = "suppress_instrumentation"


class BatchFlusher:
    def __init__(self, exporter):
        self._exporter = exporter

    def flush(self, batch, timeout=10.0):
        token = attach(set_value(_SUPPRESS, True))
        try:
            self._exporter.export(batch, timeout=timeout)
        except Exception:
            log.exception("export failed")
        detach(token)
