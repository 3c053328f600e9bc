# expect: none
"""pydantic-ai's `attach_captured_context`: the context manager is held across a `yield`
that may be finalised in another Context, where `detach(token)` raises; so it saves the
current context and re-attaches it in `finally`, which restores it by value."""
from contextlib import contextmanager

from opentelemetry import context as otel_context


def capture():
    captured = otel_context.get_current()

    @contextmanager
    def attach_captured_context():
        previous = otel_context.get_current()
        otel_context.attach(captured)
        try:
            yield
        finally:
            otel_context.attach(previous)

    return attach_captured_context
