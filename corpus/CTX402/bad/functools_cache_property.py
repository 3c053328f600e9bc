# expect: 15 CTX402
import functools

from starlette.requests import Request


class RequestView:
    """Built per request; the cache keeps every request's view alive forever."""

    def __init__(self, request: Request, schema):
        self.request = request
        self.schema = schema

    @property
    @functools.cache
    def allowed_tools(self) -> frozenset:
        return frozenset(t for t in self.schema.tools if t in self.request.scope["scopes"])
