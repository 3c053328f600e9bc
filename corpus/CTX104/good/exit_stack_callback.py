# expect: none
"""Request middleware that registers detach with an ExitStack."""
from contextlib import ExitStack

from opentelemetry import context
from opentelemetry.propagate import extract


def traced_call(app, environ, start_response):
    with ExitStack() as stack:
        token = context.attach(extract(environ))
        stack.callback(context.detach, token)
        return app(environ, start_response)
