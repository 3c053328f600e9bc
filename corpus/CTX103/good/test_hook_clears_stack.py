# expect: none
"""Kind: clearing a ContextVar back to an empty value, whatever builds it (`()`,
`tuple()`, `dict()`): a test hook drops the ambient scopes and the buffered metrics on
purpose; nothing request-specific stays bound."""
from contextvars import ContextVar

_scope_stack: ContextVar[tuple] = ContextVar("scope_stack", default=())
_scope_tags: ContextVar[dict] = ContextVar("scope_tags", default={})


class Buffer:
    def __init__(self):
        self.items = []

    def drop(self):
        self.items.clear()


_buffer = Buffer()


def clear_for_tests() -> None:
    _scope_stack.set(())
    _scope_tags.set(dict())
    _buffer.drop()
