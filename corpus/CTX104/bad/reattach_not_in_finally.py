# expect: 16 CTX104
# expect: 20 CTX104
"""Next to good/reattach_captured_context_in_finally.py: what the `finally` attaches is
the caller's `other`, not the context that was current before (no `get_current()` read),
so neither attach restores anything and both tokens are lost."""
from contextlib import contextmanager

from opentelemetry import context as otel_context


def capture(other):
    captured = otel_context.get_current()

    @contextmanager
    def attach_captured_context():
        otel_context.attach(captured)
        try:
            yield
        finally:
            otel_context.attach(other)

    return attach_captured_context
