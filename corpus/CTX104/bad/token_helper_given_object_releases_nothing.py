# expect: 21 CTX104
"""The consumer hands itself to a method that only logs: nothing detaches the token it
keeps between polls."""
import logging

from opentelemetry import context, trace

log = logging.getLogger(__name__)


class Consumer:
    def __init__(self, inner):
        self.inner = inner
        self.token = None

    def _note(self, holder) -> None:
        log.debug("polling %r", holder.inner)

    def poll(self):
        self._note(self)
        self.token = context.attach(trace.set_span_in_context(trace.INVALID_SPAN))
        return self.inner.poll()
