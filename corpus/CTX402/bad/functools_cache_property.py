# expect: 13 CTX402
import functools


class RequestView:
    """Built per request; cache keeps every request's view alive forever."""

    def __init__(self, request, schema):
        self.request = request
        self.schema = schema

    @property
    @functools.cache
    def allowed_tools(self) -> frozenset:
        return frozenset(t for t in self.schema.tools if t in self.request.scopes)
